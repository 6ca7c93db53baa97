import type { ConfigId } from './configurations';
import type { QuestionRecord } from './run';

export interface ConfigSummary {
  config: ConfigId;
  questions: number;
  errors: number;
  /** PopQA accuracy: share of answers containing a gold answer. */
  accuracy: number | null;
  /** Share of questions on which the system retrieved at least once. */
  retrievalFrequency: number | null;
  /** Means over the answers that have the metric (null scores are skipped, not counted as 0). */
  faithfulness: number | null;
  answerRelevance: number | null;
  contextRelevance: number | null;
  /** Supported cited segments / all cited segments, pooled over the set. */
  citationSupport: number | null;
  meanAnswerMs: number | null;
  meanRagasMs: number | null;
}

export const METRICS = [
  'accuracy',
  'retrievalFrequency',
  'faithfulness',
  'answerRelevance',
  'contextRelevance',
  'citationSupport',
] as const;
export type MetricKey = (typeof METRICS)[number];
export const METRIC_LABELS: Record<MetricKey, string> = {
  accuracy: 'Accuracy',
  retrievalFrequency: 'Retrieval frequency',
  faithfulness: 'Faithfulness',
  answerRelevance: 'Answer relevance',
  contextRelevance: 'Context relevance',
  citationSupport: 'Citation support',
};

export function summarise(records: readonly QuestionRecord[], configs: readonly ConfigId[]): ConfigSummary[] {
  return configs.map((config) => {
    const all = records.filter((r) => r.config === config);
    const ok = all.filter((r) => r.error === undefined);
    const cited = ok.reduce((s, r) => s + r.cited, 0);
    return {
      config,
      questions: all.length,
      errors: all.length - ok.length,
      accuracy: mean(ok.map((r) => (r.correct ? 1 : 0))),
      retrievalFrequency: mean(ok.map((r) => (r.retrieved ? 1 : 0))),
      faithfulness: mean(ok.map((r) => r.ragas?.faithfulness.score ?? null)),
      answerRelevance: mean(ok.map((r) => r.ragas?.answerRelevance.score ?? null)),
      contextRelevance: mean(ok.map((r) => r.ragas?.contextRelevance.score ?? null)),
      citationSupport: cited ? ok.reduce((s, r) => s + r.supported, 0) / cited : null,
      meanAnswerMs: mean(all.map((r) => r.answerMs)),
      meanRagasMs: mean(ok.filter((r) => r.ragas).map((r) => r.ragasMs)),
    };
  });
}

function mean(xs: (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

export interface EvalExport {
  kind: 'selfrag-browser-evaluation';
  version: 1;
  createdAt: string;
  questionSet: string;
  models: Record<string, string>;
  settings: unknown;
  summary: ConfigSummary[];
  records: QuestionRecord[];
}

export function buildExport(args: Omit<EvalExport, 'kind' | 'version'>): EvalExport {
  return { kind: 'selfrag-browser-evaluation', version: 1, ...args };
}
