// The answer configurations of the accuracy table (after Self-RAG's Table 2): no retrieval, plain
// RAG, Self-RAG always retrieving, Self-RAG adaptive (the app's default), Self-CRAG. Each is the
// app's own code over the same ports; an answer is what a reader would see, with its citations.
import { createCorrector } from '../../src/core/crag/corrector';
import { decode } from '../../src/core/decode';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../src/core/defaults';
import { plainRagAnswer } from '../../src/core/plain-rag';
import { validateDecodeSettings } from '../../src/core/settings';
import type { Critic, Generator, Retriever, ScoredPassage, Writer } from '../../src/core/ports';
import type { DecodeSettings, Withheld } from '../../src/core/types';

export const ROWS = ['none', 'plain', 'always', 'adaptive', 'crag'] as const;
export type Row = (typeof ROWS)[number];

export const ROW_NAMES: Record<Row, string> = {
  none: 'no retrieval (one pass)',
  plain: 'plain RAG (top 3 passages, one pass)',
  always: 'Self-RAG, always retrieve',
  adaptive: 'Self-RAG, adaptive (the default)',
  crag: 'Self-CRAG (the default + corrective retrieval)',
};

export interface Ports {
  generator: Generator & Writer;
  retriever: Retriever;
  critic: Critic;
  /** CRAG's retrieval evaluator. */
  score(question: string, texts: string[]): Promise<number[]>;
}

export interface Answered {
  text: string;
  /** Passages the answer cites: one per segment for Self-RAG, every passage in the prompt for plain RAG. */
  cited: ScoredPassage[];
  /** Every passage a candidate was written from (Self-RAG), for the critique figures. */
  considered: ScoredPassage[];
  candidates: number;
  /** Candidates withheld as not answers, by reason. */
  withheld: Withheld['reason'][];
  /** Nothing written was an answer: the page shows the evidence instead. */
  noAnswer: boolean;
  firstMs: number | null;
  ms: number;
}

/**
 * ANSWERS_DECODE='{"relevanceGate":0}' runs the Self-RAG rows with other decode settings (a setting
 * calibrated on the dev split before the test split sees it). Checked as the page checks its own.
 */
function decodeOverride(): Partial<DecodeSettings> {
  const raw = process.env.ANSWERS_DECODE;
  if (!raw) return {};
  const o = JSON.parse(raw) as Partial<DecodeSettings>;
  validateDecodeSettings({ ...DEFAULT_DECODE_SETTINGS, ...o });
  return o;
}

export async function answer(row: Row, question: string, ports: Ports): Promise<Answered> {
  const t0 = performance.now();
  let first: number | null = null;
  const seen = (t: string) => {
    if (first === null && /[\p{L}\p{N}]/u.test(t)) first = performance.now() - t0;
  };
  if (row === 'none' || row === 'plain') {
    const r = await plainRagAnswer(
      question,
      { retriever: ports.retriever, writer: ports.generator },
      { passages: row === 'plain' ? 3 : 0, maxTokens: 192 },
      { onText: seen },
    );
    return {
      text: r.text,
      cited: r.passages,
      considered: r.passages,
      candidates: 0,
      withheld: [],
      noAnswer: false,
      firstMs: first,
      ms: performance.now() - t0,
    };
  }
  const settings: DecodeSettings = {
    ...DEFAULT_DECODE_SETTINGS,
    ...(row === 'always' ? { mode: 'always' } : {}),
    ...decodeOverride(),
  };
  const corrector =
    row === 'crag'
      ? createCorrector({ score: (q, t) => ports.score(q, t), writer: ports.generator, retriever: ports.retriever })
      : undefined;
  const result = await decode(
    question,
    {
      generator: ports.generator,
      retriever: ports.retriever,
      critic: ports.critic,
      ...(corrector ? { corrector } : {}),
    },
    settings,
    DEFAULT_RANK_SETTINGS,
    { onEvent: (e) => e.type === 'text' && seen(e.text) },
  );
  const best = result.ranking.best.map((b) => b.candidate);
  return {
    text: best.map((c) => c.text).join(' '),
    cited: best.flatMap((c) => (c.passage ? [c.passage] : [])),
    considered: result.tree.candidates.flatMap((c) => (c.passage ? [c.passage] : [])),
    candidates: result.tree.candidates.length,
    withheld: result.tree.candidates.flatMap((c) => (c.withheld ? [c.withheld.reason] : [])),
    noAnswer: best.length === 0,
    firstMs: first,
    ms: performance.now() - t0,
  };
}
