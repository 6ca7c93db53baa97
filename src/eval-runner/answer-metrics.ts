import type { Passage } from '../core/ports';
import { evaluateAnswer, type RagasPorts } from '../core/ragas/evaluate';
import type { RagasReport } from '../core/ragas/types';
import type { Ranking } from '../core/types';
import { errorMessage } from '../core/errors';

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
  return {
    question,
    answer: best
      .map((c) => c.text.trim())
      .filter(Boolean)
      .join(' '),
    contexts: [...contexts.values()],
  };
}

/**
 * Measures an answer that is already on screen. Nothing awaits it: the caller gets a cancel
 * function and state updates, and a cancelled run never reports a result (a newer answer
 * must not show an older answer's metrics).
 */
export function measureAnswer(
  input: AnswerMetricsInput,
  ports: (signal: AbortSignal) => Promise<RagasPorts>,
  onState: (s: MetricsState) => void,
  opts: { n?: number } = {},
): () => void {
  const ac = new AbortController();
  onState({ status: 'running' });
  void (async () => {
    try {
      const report = await evaluateAnswer(input, await ports(ac.signal), {
        signal: ac.signal,
        ...(opts.n ? { n: opts.n } : {}),
      });
      if (!ac.signal.aborted) onState({ status: 'done', report });
    } catch (e) {
      if (!ac.signal.aborted) onState({ status: 'failed', message: errorMessage(e) });
    }
  })();
  return () => {
    if (ac.signal.aborted) return;
    ac.abort();
    onState({ status: 'cancelled' });
  };
}

/** Identity of a measured answer: a re-rank that keeps the same text and citations is the same answer. */
export function answerKey(input: AnswerMetricsInput): string {
  return `${input.question}\u0000${input.answer}\u0000${input.contexts.map((c) => c.id).join(',')}`;
}

/**
 * The same ports, reporting each model call (write, embed, relevance, support) before it is
 * made; once `cancelled` is aborted they refuse, so a cancelled measurement calls no model.
 */
export function countingPorts(ports: RagasPorts, onCall: () => void, cancelled?: AbortSignal): RagasPorts {
  const { writer, embedder, critic } = ports;
  const call = () => {
    cancelled?.throwIfAborted();
    onCall();
  };
  return {
    ...ports,
    writer: {
      write: (instruction, opts) => {
        call();
        return writer.write(instruction, opts);
      },
    },
    embedder: {
      embed: (texts, signal) => {
        call();
        return embedder.embed(texts, signal);
      },
    },
    ...(critic
      ? {
          critic: {
            relevance: (question, passages, signal) => {
              call();
              return critic.relevance(question, passages, signal);
            },
            support: (pairs, signal) => {
              call();
              return critic.support(pairs, signal);
            },
          },
        }
      : {}),
  };
}

export interface MetricsView {
  /** The latest measurement and the answer it is about; null before the first one starts. */
  measured: { key: string; state: MetricsState } | null;
  /** The figures belong to an answer other than the one shown (a re-rank picked other segments). */
  stale: boolean;
  /** Model calls made for the current decode's figures. */
  calls: number;
}

export interface MetricsSession {
  /** The answer now shown. A new `runId` (a finished decode) is measured once; the same run re-ranked calls nothing. */
  show(runId: number, input: AnswerMetricsInput): void;
  /** Measures the answer now shown, on the user's request. */
  measureShown(): void;
  cancel(): void;
  dispose(): void;
}

/**
 * The lifecycle of the metrics beside the answer page's answer, framework-free: measure each
 * finished decode once, never because of a re-rank, and drop a measurement when its decode
 * is replaced, cancelled or the view goes away.
 */
export function createMetricsSession(
  ports: () => Promise<RagasPorts>,
  onChange: (view: MetricsView) => void,
  opts: { n?: number } = {},
): MetricsSession {
  let runId: number | null = null;
  let shown: AnswerMetricsInput | null = null;
  let measured: MetricsView['measured'] = null;
  let calls = 0;
  let stop: (() => void) | null = null;
  let generation = 0;
  let disposed = false;

  const emit = () => {
    if (!disposed)
      onChange({ measured, stale: measured !== null && shown !== null && measured.key !== answerKey(shown), calls });
  };
  const cancel = () => {
    const s = stop;
    stop = null;
    s?.();
  };
  const measure = (input: AnswerMetricsInput) => {
    cancel();
    const mine = ++generation;
    const key = answerKey(input);
    if (!input.answer) {
      measured = { key, state: { status: 'failed', message: 'There is no answer text to measure.' } };
      return emit();
    }
    const counted = async (signal: AbortSignal) =>
      countingPorts(
        await ports(),
        () => {
          calls++;
          emit();
        },
        signal,
      );
    stop = measureAnswer(
      input,
      counted,
      (state) => {
        // A replaced measurement reports nothing: its figures are for an answer no longer shown.
        if (mine !== generation) return;
        measured = { key, state };
        if (state.status !== 'running') stop = null;
        emit();
      },
      opts,
    );
  };

  return {
    show(id, input) {
      if (disposed) return;
      shown = input;
      if (id === runId) return emit();
      runId = id;
      cancel();
      measured = null;
      calls = 0;
      measure(input);
    },
    measureShown() {
      if (!disposed && shown) measure(shown);
    },
    cancel,
    dispose() {
      disposed = true;
      cancel();
    },
  };
}
