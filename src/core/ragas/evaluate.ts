import type { Critic, Embedder, Passage, Writer } from '../ports';
import { answerRelevance } from './answer-relevance';
import { contextRelevance } from './context-relevance';
import { faithfulness } from './faithfulness';
import type { ModelNames, RagasReport } from './types';

export interface RagasPorts {
  writer: Writer;
  embedder: Embedder;
  /** NLI for faithfulness; without it the writer verifies statements as in the paper. */
  critic?: Critic;
  models: ModelNames;
}

export interface RagasOptions {
  /** Questions generated for answer relevance. */
  n?: number;
  signal?: AbortSignal;
}

/**
 * All three RAGAS metrics for one answer. Meant to be started after the answer is shown and
 * never awaited by the answer itself; abort the signal to drop it (e.g. on a new question).
 * The metrics run one after another because they share one writer (one GPU model).
 */
export async function evaluateAnswer(
  input: { question: string; answer: string; contexts: readonly Passage[] },
  ports: RagasPorts,
  opts: RagasOptions = {},
): Promise<RagasReport> {
  const { signal } = opts;
  signal?.throwIfAborted();
  const f = await faithfulness(input.question, input.answer, input.contexts, ports, signal);
  const ar = await answerRelevance(input.question, input.answer, ports, opts.n ?? 3, signal);
  const cr = await contextRelevance(input.question, input.contexts, ports, signal);
  return { faithfulness: f, answerRelevance: ar, contextRelevance: cr };
}
