// State of one answer as the UI sees it, and the pure transitions on it: decode
// events stream in, a finished tree is re-ranked on every weight change, and
// the segments whose chosen candidate changed are remembered.
import type { SearchMode } from '../../core/fusion';
import type { ScoredPassage, RelProbs } from '../../core/ports';
import type {
  AnswerTree,
  Candidate,
  DecodeEvent,
  DecodeResult,
  DecodeSettings,
  RankSettings,
  Ranking,
} from '../../core/types';
import type { CragChoice } from '../persist/settings';

/**
 * How much of the library search by meaning reached when a question was searched: passages with
 * vectors (`embedded`) out of every passage (`total`). An answer keeps it (view/meaning-coverage.ts
 * counts and words it).
 */
export interface MeaningCoverage {
  embedded: number;
  total: number;
}

export type AnswerStatus = 'idle' | 'running' | 'done' | 'stopped' | 'error';

export interface StreamingText {
  key: string;
  depth: number;
  parentId: string | null;
  passageId: string | null;
  text: string;
}

/** The model and engine that wrote an answer, when it was written ('llama.cpp' or 'web-llm'). */
export interface AnswerWriter {
  model: string;
  engine: string;
}

/** A writer as an answer knows it: recorded, or 'not recorded' for an answer kept before records were kept. */
export type WriterRecord = AnswerWriter | 'not recorded';

export interface EvidenceResult {
  passages: { passage: ScoredPassage; rel: RelProbs | null }[];
}

export interface AnswerState {
  runId: number;
  status: AnswerStatus;
  question: string;
  /** The query retrieval used when it differs from the question (a follow-up's standalone rewrite). */
  query?: string;
  /** Decode settings the current tree was built with (null before the first run). */
  usedSettings:
    | (DecodeSettings & {
        corrective: boolean;
        crag?: CragChoice;
        temperature?: number;
        search?: SearchMode;
        rerank?: boolean;
      })
    | null;
  tree: AnswerTree | null;
  ranking: Ranking | null;
  /** Texts being written now, keyed by depth|parent|passage; removed once the candidate lands. */
  streaming: StreamingText[];
  /** Depths retrieved at, with the passages. */
  retrieved: Record<number, ScoredPassage[]>;
  /** Depths whose chosen candidate changed in the last re-rank. */
  changed: number[];
  evidence: EvidenceResult | null;
  /** Who wrote it (null: no model has, e.g. passages only, or not yet known). */
  writer: WriterRecord | null;
  /** Why the page shows passages instead of a written answer. */
  evidenceReason: string | null;
  /**
   * How much of the library search by meaning reached when this question was searched, when not
   * all of it (a batch still being embedded): the rest was found by its words.
   */
  coverage?: MeaningCoverage;
  error: string | null;
}

export const initialAnswerState: AnswerState = {
  runId: 0,
  status: 'idle',
  question: '',
  usedSettings: null,
  tree: null,
  ranking: null,
  streaming: [],
  retrieved: {},
  changed: [],
  evidence: null,
  writer: null,
  evidenceReason: null,
  error: null,
};

export type Rerank = (tree: AnswerTree, rank: RankSettings) => Ranking;

export function startRun(
  s: AnswerState,
  question: string,
  settings: DecodeSettings,
  corrective = false,
  crag?: CragChoice,
): AnswerState {
  return {
    ...initialAnswerState,
    runId: s.runId + 1,
    status: 'running',
    question,
    usedSettings: crag ? { ...settings, corrective, crag: { ...crag } } : { ...settings, corrective },
    tree: { question, settings, candidates: [] },
  };
}

function streamKey(depth: number, parentId: string | null, passageId: string | null): string {
  return `${depth}|${parentId ?? ''}|${passageId ?? ''}`;
}

export function applyEvent(s: AnswerState, ev: DecodeEvent, rank: RankSettings, rerank: Rerank): AnswerState {
  if (s.status !== 'running' || !s.tree) return s;
  switch (ev.type) {
    case 'text': {
      const key = streamKey(ev.depth, ev.parentId, ev.passageId);
      const entry: StreamingText = {
        key,
        depth: ev.depth,
        parentId: ev.parentId,
        passageId: ev.passageId,
        text: ev.text,
      };
      const i = s.streaming.findIndex((x) => x.key === key);
      const streaming = i < 0 ? [...s.streaming, entry] : s.streaming.map((x, j) => (j === i ? entry : x));
      return { ...s, streaming };
    }
    case 'retrieved':
      return { ...s, retrieved: { ...s.retrieved, [ev.depth]: ev.passages } };
    case 'candidate': {
      const c = ev.candidate;
      const tree = { ...s.tree, candidates: [...s.tree.candidates, c] };
      const key = streamKey(c.depth, c.parentId, c.passage?.id ?? null);
      let ranking = s.ranking;
      try {
        ranking = rerank(tree, rank);
      } catch {
        // A provisional ranking is a preview; the decode itself reports bad input.
      }
      return { ...s, tree, ranking, streaming: s.streaming.filter((x) => x.key !== key) };
    }
    default:
      return s;
  }
}

export function finishRun(s: AnswerState, result: DecodeResult): AnswerState {
  return {
    ...s,
    status: result.aborted ? 'stopped' : 'done',
    tree: result.tree,
    ranking: result.ranking,
    streaming: [],
    changed: [],
  };
}

export function failRun(s: AnswerState, message: string): AnswerState {
  return { ...s, status: s.tree && s.tree.candidates.length > 0 ? 'stopped' : 'error', streaming: [], error: message };
}

/** Depths whose chosen candidate differs between two rankings. */
export function changedDepths(before: Ranking | null, after: Ranking): number[] {
  const out: number[] = [];
  const n = Math.max(before?.best.length ?? 0, after.best.length);
  for (let d = 0; d < n; d++) {
    if (before?.best[d]?.candidate.id !== after.best[d]?.candidate.id) out.push(d);
  }
  return out;
}

/** Re-ranks the stored tree: no model is involved, only the core's scoring. */
export function applyRank(s: AnswerState, rank: RankSettings, rerank: Rerank): AnswerState {
  if (!s.tree || s.tree.candidates.length === 0) return s;
  const ranking = rerank(s.tree, rank);
  return { ...s, ranking, changed: s.ranking ? changedDepths(s.ranking, ranking) : [] };
}

/** Candidates of one step, i.e. siblings of the chosen candidate at a depth. */
export function siblingsOf(tree: AnswerTree, chosen: Candidate): Candidate[] {
  return tree.candidates.filter((c) => c.depth === chosen.depth && c.parentId === chosen.parentId);
}
