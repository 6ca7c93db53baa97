import { createCorrector } from '../core/crag/corrector';
import type { CragSettings } from '../core/crag/settings';
import { decode } from '../core/decode';
import type {
  Corrector,
  CorrectionAction,
  Critic,
  RetrievalCorrection,
  Embedder,
  ExternalSearch,
  Generator,
  Passage,
  Retriever,
  ScoredPassage,
  SupProbs,
  Writer,
} from '../core/ports';
import { evaluateAnswer } from '../core/ragas/evaluate';
import type { ModelNames, RagasReport } from '../core/ragas/types';
import type { Candidate, DecodeSettings, RankSettings } from '../core/types';
import { configById, type ConfigId } from './configurations';
import { documentRetriever } from './doc-retriever';
import { containsGold, type EvalItem } from './question-set';
import { errorMessage } from '../core/errors';

export interface EvalPorts {
  generator: Generator;
  writer: Writer;
  retriever: Retriever;
  embedder: Embedder;
  critic?: Critic;
  /** CRAG's retrieval evaluator (cross-encoder relevance probabilities). */
  relevanceScores: (query: string, texts: string[], signal?: AbortSignal) => Promise<number[]>;
  models: ModelNames & { generator: string };
  external?: ExternalSearch;
  online?: () => boolean;
}

export interface RunOptions {
  configs: readonly ConfigId[];
  decode: DecodeSettings;
  rank: RankSettings;
  crag?: Partial<CragSettings>;
  /** Compute the RAGAS metrics (costs several writer calls per answer). */
  ragas: boolean;
  /** Questions generated per answer for answer relevance. */
  n?: number;
  signal?: AbortSignal;
  now?: () => number;
  onRecord?: (record: QuestionRecord, done: number, total: number) => void;
}

export interface QuestionRecord {
  itemId: string;
  config: ConfigId;
  question: string;
  gold: string[];
  answer: string;
  correct: boolean;
  /** Some step of the decode retrieved. */
  retrieved: boolean;
  /** Cited segments of the chosen answer and how many of them their passage supports. */
  cited: number;
  supported: number;
  /** Distinct passages the chosen answer cites (the context RAGAS judges). */
  contexts: { id: string; title: string }[];
  /** CRAG actions taken, in decode order (Self-CRAG only). */
  actions: CorrectionAction[];
  /** Every correction the corrector made during the decode, with its knowledge strips (Self-CRAG only). */
  corrections: Omit<RetrievalCorrection, 'passages'>[];
  abstained: boolean;
  ragas: RagasReport | null;
  /** Time to the answer, and to the RAGAS metrics after it. */
  answerMs: number;
  ragasMs: number;
  error?: string;
}

/**
 * Runs every question through every chosen configuration, question by question so the
 * configurations can be compared as soon as a question is done. One question's failure is
 * recorded on its row and the run goes on; an abort stops the run and keeps what finished.
 */
export async function runEvaluation(
  items: readonly EvalItem[],
  ports: EvalPorts,
  opts: RunOptions,
): Promise<QuestionRecord[]> {
  const now = opts.now ?? (() => performance.now());
  const records: QuestionRecord[] = [];
  const total = items.length * opts.configs.length;
  for (const item of items) {
    const retriever = item.documents
      ? documentRetriever({ ...item, documents: item.documents }, ports.embedder, { rerank: ports.relevanceScores })
      : ports.retriever;
    for (const configId of opts.configs) {
      if (opts.signal?.aborted) return records;
      const record = await runOne(item, configId, retriever, ports, opts, now);
      if (opts.signal?.aborted) return records;
      records.push(record);
      opts.onRecord?.(record, records.length, total);
    }
  }
  return records;
}

async function runOne(
  item: EvalItem,
  configId: ConfigId,
  retriever: Retriever,
  ports: EvalPorts,
  opts: RunOptions,
  now: () => number,
): Promise<QuestionRecord> {
  const config = configById(configId);
  const base: QuestionRecord = {
    itemId: item.id,
    config: configId,
    question: item.question,
    gold: item.answers,
    answer: '',
    correct: false,
    retrieved: false,
    cited: 0,
    supported: 0,
    contexts: [],
    actions: [],
    corrections: [],
    abstained: false,
    ragas: null,
    answerMs: 0,
    ragasMs: 0,
  };
  const inner: Corrector | undefined = config.corrective
    ? createCorrector({
        score: ports.relevanceScores,
        writer: ports.writer,
        retriever,
        ...(ports.external ? { external: ports.external } : {}),
        ...(ports.online ? { online: ports.online } : {}),
        ...(opts.crag ? { settings: opts.crag } : {}),
      })
    : undefined;
  // Kept so the page can show what each correction did (strips kept and dropped, the rewrite).
  const corrector: Corrector | undefined = inner && {
    async correct(question, passages, signal) {
      const fix = await inner.correct(question, passages, signal);
      const { passages: _knowledge, ...record } = fix;
      base.corrections.push(record);
      return fix;
    },
  };
  const t0 = now();
  try {
    const result = await decode(
      item.question,
      {
        generator: ports.generator,
        retriever,
        ...(ports.critic ? { critic: ports.critic } : {}),
        ...(corrector ? { corrector } : {}),
      },
      { ...opts.decode, mode: config.mode },
      opts.rank,
      opts.signal ? { signal: opts.signal } : {},
    );
    base.answerMs = now() - t0;
    const best = result.ranking.best.map((s) => s.candidate);
    base.answer = best
      .map((c) => c.text.trim())
      .filter(Boolean)
      .join(' ');
    base.correct = containsGold(base.answer, item.answers);
    base.retrieved = result.tree.candidates.some((c) => c.retrieve.retrieved);
    base.actions = best.flatMap((c) => (c.correction ? [c.correction.action] : []));
    base.abstained = best.some((c) => c.correction?.noEvidence === 'abstain');
    const contexts = distinctPassages(best);
    base.contexts = contexts.map((p) => ({ id: p.id, title: p.title }));
    const support = await citationSupport(best, ports.critic, opts.signal);
    base.cited = support.cited;
    base.supported = support.supported;
    if (opts.ragas && !opts.signal?.aborted) {
      const t1 = now();
      base.ragas = await evaluateAnswer(
        { question: item.question, answer: base.answer, contexts },
        {
          writer: ports.writer,
          embedder: ports.embedder,
          ...(ports.critic ? { critic: ports.critic } : {}),
          models: ports.models,
        },
        { ...(opts.n ? { n: opts.n } : {}), ...(opts.signal ? { signal: opts.signal } : {}) },
      );
      base.ragasMs = now() - t1;
    }
  } catch (e) {
    if (!base.answerMs) base.answerMs = now() - t0;
    base.error = errorMessage(e);
  }
  return base;
}

function distinctPassages(best: Candidate[]): ScoredPassage[] {
  const seen = new Map<string, ScoredPassage>();
  for (const c of best) if (c.passage && !seen.has(c.passage.id)) seen.set(c.passage.id, c.passage);
  return [...seen.values()];
}

/**
 * A cited segment counts as supported when its passage entails it: by the evaluator's NLI
 * when there is one (independent of the generator), else by the segment's own ISSUP.
 */
async function citationSupport(
  best: Candidate[],
  critic: Critic | undefined,
  signal?: AbortSignal,
): Promise<{ cited: number; supported: number }> {
  const cited = best.filter(
    (c): c is Candidate & { passage: ScoredPassage } => c.passage !== null && c.text.trim() !== '',
  );
  if (!cited.length) return { cited: 0, supported: 0 };
  let probs: (SupProbs | undefined)[];
  if (critic)
    probs = await critic.support(
      cited.map((c) => ({ passage: c.passage as Passage, text: c.text })),
      signal,
    );
  else probs = cited.map((c) => c.sup);
  const judged = probs.filter((p): p is SupProbs => p !== undefined);
  return { cited: judged.length, supported: judged.filter((p) => p.full > p.partial && p.full > p.none).length };
}
