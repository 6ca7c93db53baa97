import type { Passage } from '../../core/ports';
import { evaluateAnswer, type RagasPorts } from '../../core/ragas/evaluate';
import type { RagasReport } from '../../core/ragas/types';
import type { Ranking } from '../../core/types';

export interface AnswerMetricsInput {
  question: string;
  answer: string;
  /** The passages the chosen answer cites: the context RAGAS judges. */
  contexts: Passage[];
}

export type MetricsState =
  | { status: 'running' }
  | { status: 'done'; report: RagasReport }
  | { status: 'failed'; message: string }
  | { status: 'cancelled' };

/** The chosen answer of a ranking as RAGAS sees it: its text and the distinct passages it cites. */
export function answerForMetrics(question: string, ranking: Ranking): AnswerMetricsInput {
  const best = ranking.best.map((b) => b.candidate);
  const contexts = new Map<string, Passage>();
  for (const c of best) if (c.passage && !contexts.has(c.passage.id)) contexts.set(c.passage.id, c.passage);
  return { question, answer: best.map((c) => c.text.trim()).filter(Boolean).join(' '), contexts: [...contexts.values()] };
}

/**
 * Measures an answer that is already on screen. Nothing awaits it: the caller gets a cancel
 * function and state updates, and a cancelled run never reports a result (a newer answer
 * must not show an older answer's metrics).
 */
export function measureAnswer(
  input: AnswerMetricsInput,
  ports: () => Promise<RagasPorts>,
  onState: (s: MetricsState) => void,
  opts: { n?: number } = {},
): () => void {
  const ac = new AbortController();
  onState({ status: 'running' });
  void (async () => {
    try {
      const report = await evaluateAnswer(input, await ports(), { signal: ac.signal, ...(opts.n ? { n: opts.n } : {}) });
      if (!ac.signal.aborted) onState({ status: 'done', report });
    } catch (e) {
      if (!ac.signal.aborted) onState({ status: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  })();
  return () => {
    if (ac.signal.aborted) return;
    ac.abort();
    onState({ status: 'cancelled' });
  };
}
