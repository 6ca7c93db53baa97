import type { Embedder, Writer } from '../ports';
import { noncommittalVerdict, questionPrompt, replyLines } from './prompts';
import type { AnswerRelevance, ModelNames } from './types';

export interface AnswerRelevancePorts {
  writer: Writer;
  embedder: Embedder;
  models: ModelNames;
}

/**
 * RAGAS Eq. 1: AR = (1/n) Σ sim(q, qᵢ), with qᵢ the questions generated from the answer and sim
 * the cosine; times 0 when the answer is noncommittal, as the RAGAS library scores it (an
 * evasive "I don't know" otherwise invites the question back and scores high).
 *
 * How the n questions are drawn: in ONE generation that writes n different questions and then
 * the noncommittal verdict. The library draws n samples at temperature 0.3, each with its own
 * question and verdict, and zeroes the score only when every sample says noncommittal. Here the
 * writer is the one local model that also answers, decoding greedily: n greedy samples of one
 * prompt would be n copies of the same question at n times the cost, so the variety the
 * library gets from sampling is asked for in the prompt instead, and the single verdict plays
 * the part of the library's unanimous one.
 */
export async function answerRelevance(
  question: string,
  answer: string,
  ports: AnswerRelevancePorts,
  n = 3,
  signal?: AbortSignal,
): Promise<AnswerRelevance> {
  const models = [`writer: ${ports.models.writer}`, `embedder: ${ports.models.embedder ?? 'evaluator embedder'}`];
  if (!answer.trim()) return { score: null, models, questions: [], similarities: [], note: 'the answer is empty' };
  const reply = await ports.writer.write(questionPrompt(answer, n), { maxTokens: 48 * n + 8, signal });
  signal?.throwIfAborted();
  const noncommittal = noncommittalVerdict(reply);
  const questions = replyLines(reply)
    .filter((l) => !/^\W*noncommittal\b/i.test(l))
    .slice(0, n);
  if (!questions.length)
    return { score: null, models, questions, similarities: [], note: 'the writer generated no question' };
  const [q, ...generated] = await ports.embedder.embed([question, ...questions], signal);
  if (!q || generated.length !== questions.length)
    throw new Error(`embedder returned ${generated.length + (q ? 1 : 0)} vectors for ${questions.length + 1} texts`);
  const similarities = generated.map((v) => cosine(q, v));
  const mean = similarities.reduce((a, b) => a + b, 0) / similarities.length;
  const notes: string[] = [];
  if (questions.length < n) notes.push(`asked for ${n} questions, got ${questions.length}`);
  if (noncommittal) notes.push('the writer judged the answer noncommittal (evasive or vague), so it scores 0');
  if (noncommittal === undefined) notes.push('the writer gave no noncommittal verdict; counted as committal');
  return {
    score: noncommittal ? 0 : mean,
    models,
    questions,
    similarities,
    noncommittal: noncommittal ?? false,
    ...(notes.length ? { note: notes.join('; ') } : {}),
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
