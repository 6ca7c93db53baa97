import type { Embedder, Writer } from '../ports';
import { questionPrompt, replyLines } from './prompts';
import type { AnswerRelevance, ModelNames } from './types';

export interface AnswerRelevancePorts {
  writer: Writer;
  embedder: Embedder;
  models: ModelNames;
}

/** RAGAS Eq. 1: AR = (1/n) Σ sim(q, qᵢ), with qᵢ the questions generated from the answer and sim the cosine. */
export async function answerRelevance(
  question: string,
  answer: string,
  ports: AnswerRelevancePorts,
  n = 3,
  signal?: AbortSignal,
): Promise<AnswerRelevance> {
  const models = [`writer: ${ports.models.writer}`, `embedder: ${ports.models.embedder ?? 'evaluator embedder'}`];
  if (!answer.trim()) return { score: null, models, questions: [], similarities: [], note: 'the answer is empty' };
  const questions = replyLines(await ports.writer.write(questionPrompt(answer, n), { maxTokens: 48 * n, signal })).slice(0, n);
  signal?.throwIfAborted();
  if (!questions.length) return { score: null, models, questions, similarities: [], note: 'the writer generated no question' };
  const [q, ...generated] = await ports.embedder.embed([question, ...questions], signal);
  if (!q || generated.length !== questions.length) throw new Error(`embedder returned ${generated.length + (q ? 1 : 0)} vectors for ${questions.length + 1} texts`);
  const similarities = generated.map((v) => cosine(q, v));
  const score = similarities.reduce((a, b) => a + b, 0) / similarities.length;
  return {
    score,
    models,
    questions,
    similarities,
    ...(questions.length < n ? { note: `asked for ${n} questions, got ${questions.length}` } : {}),
  };
}

export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`cannot compare embeddings of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
