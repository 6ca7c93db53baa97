// Shapes the decode loop produces and the UI renders. The UI depends on these
// names; extend them, do not rename them.
import type {
  CorrectionAction,
  CritiqueSource,
  KnowledgeStrip,
  RelProbs,
  ResolvedCritiqueSource,
  RetrieveProbs,
  ScoredPassage,
  SupProbs,
  UseProbs,
} from './ports';

/** Critique weights of Eq. 4 (defaults 1.0 / 1.0 / 0.5); `seq` weights the normalised sequence likelihood (0 = off). */
export interface Weights {
  rel: number;
  sup: number;
  use: number;
  seq: number;
}

export type RetrievalMode = 'adaptive' | 'always' | 'never';

/** Settings that need a new decode when they change (as opposed to weights, which only re-rank). */
export interface DecodeSettings {
  mode: RetrievalMode;
  /** δ: retrieve when p(Retrieval) / (p(Retrieval) + p(No Retrieval)) > threshold. */
  threshold: number;
  beamWidth: number;
  maxDepth: number;
  /** Passages retrieved per step, i.e. candidates per expanded node. */
  passagesPerStep: number;
  critiqueSource: CritiqueSource;
  /** With critiqueSource 'blend': weight of the evaluator's probabilities (0..1). */
  blend: number;
  /**
   * The relevance gate (0..1; 0 or absent: off). Before a step writes its candidates, the
   * evaluator's relevance model judges the retrieved passages, and no candidate is written from
   * a passage whose ISREL is below the gate; the step's most relevant passage is always written.
   * Needs the critic; without one the gate is skipped.
   */
  relevanceGate?: number;
  /**
   * Stop the search once the best path at a depth has ended the answer (the generator said it
   * was complete), as a single answer would stop at its end, instead of writing on along the
   * other beams to see whether one of them ends better. Absent: off (the paper's search).
   */
  stopAtFirstAnswer?: boolean;
  /**
   * The most candidate segments one answer may write (0 or absent: no limit). Each is a whole
   * constrained decode, and engines write them one after another, so this bounds an answer's
   * cost. A step that would pass it writes its most relevant passages first (the evaluator's
   * judgement when the gate made one, else the retriever's order); then the search stops.
   */
  maxCandidates?: number;
}

/** A retrieved passage the relevance gate kept the generator from writing a candidate from. */
export interface SkippedPassage {
  depth: number;
  parentId: string | null;
  passage: ScoredPassage;
  /** The evaluator's relevance probabilities that fell below the gate. */
  rel: RelProbs;
}

/**
 * Which finished path is the answer (docs/conformance.md, "Which finished path wins"):
 * - 'any-finished': every path that ended (the generator said done, the depth limit, or no
 *   surviving continuation) competes, a path the generator ended above one that only stopped,
 *   then on its mean segment score: the default;
 * - 'deepest-level': the reference code's rule, the best beam node of the deepest level
 *   reached, so a path that ended early never wins.
 */
export type FinalPick = 'any-finished' | 'deepest-level';

/** Settings that only re-rank a stored tree. */
export interface RankSettings {
  weights: Weights;
  /** Drop candidates whose most likely support token is [No support / Contradictory]. */
  hardConstraints: boolean;
  /** Which finished path wins; absent means 'any-finished'. */
  finalPick?: FinalPick;
}

/** One candidate segment: a node of the answer tree. Raw group probabilities are kept so re-ranking is pure. */
/**
 * Why a candidate is not an answer, though the model wrote something: it repeats the prompt's own
 * words, repeats an earlier segment or an earlier turn's answer in its thread, was cut off before a whole sentence or before its critiques
 * were read, or says the passage does not answer. Such a candidate never outranks one that is an
 * answer (a missing critique must not score better than a poor one), is never continued, and when
 * nothing else is left the page says the model could not answer from these passages.
 */
export interface Withheld {
  reason: 'form-text' | 'repeat' | 'earlier-answer' | 'cut-off' | 'unread' | 'declined';
  /** In plain words, for the "why this segment" view. */
  detail: string;
}

export interface Candidate {
  id: string;
  parentId: string | null;
  /** 0 for the first segment. */
  depth: number;
  /** Text with reflection tokens stripped. */
  text: string;
  /** The passage it was written from (its citation), or null when written without retrieval. */
  passage: ScoredPassage | null;
  /** The retrieval decision made before this segment. */
  retrieve: {
    probs: RetrieveProbs | null;
    retrieved: boolean;
    reason: 'adaptive' | 'always' | 'never' | 'continue';
    /** Why the decision could not be carried out as made, e.g. retrieval found no passages so the segment was written without one. */
    note?: string;
  };
  /**
   * What the corrector (Self-CRAG) did to this step's retrieval. With `noEvidence: 'abstain'` the
   * candidate is a marker with empty text: the system declined to answer this step for lack of evidence.
   */
  correction?: {
    action: CorrectionAction;
    details?: string;
    noEvidence?: 'answer-without-retrieval' | 'abstain';
    /** The keyword query the question was rewritten into, when the corrector searched again. */
    rewrite?: string;
    /** Every knowledge strip the corrector scored, kept or dropped, so the UI can show the refinement. */
    strips?: KnowledgeStrip[];
  };
  /** The probabilities used for scoring, after the critique source was applied. */
  rel?: RelProbs;
  sup?: SupProbs;
  use?: UseProbs;
  /** The generator's own and the evaluator's probabilities, when each was computed. */
  fromGenerator: { rel?: RelProbs; sup?: SupProbs; use?: UseProbs };
  fromEvaluator?: { rel?: RelProbs; sup?: SupProbs };
  logprob?: number;
  tokenCount: number;
  /** The generator ended the answer after this segment. */
  done: boolean;
  /** Malformed generator output, kept but marked. */
  problem?: string;
  /** Not an answer a reader should be shown (./ports.ts, Withheld): kept in the tree, ranked below every answer. */
  withheld?: Withheld;
}

/** Everything a decode considered: re-ranking works on this alone. */
export interface AnswerTree {
  question: string;
  settings: DecodeSettings;
  candidates: Candidate[];
  /** Where the critiques came from when the setting was 'auto' (./critique-source.ts). */
  critiquesFrom?: ResolvedCritiqueSource;
  /** Passages the relevance gate skipped (absent when the gate is off). */
  skipped?: SkippedPassage[];
}

export interface ScoredCandidate {
  candidate: Candidate;
  /** This segment's own score S (Eq. 4). */
  segmentScore: number;
  /** Path score including its ancestors. */
  pathScore: number;
  /** Why it was dropped, if it was (e.g. 'hard-constraint'). */
  pruned?: string;
  /** Survived the beam at its depth. */
  inBeam: boolean;
}

export interface Ranking {
  /** The chosen answer: one candidate per segment, root first. */
  best: ScoredCandidate[];
  /** Every candidate with its scores, by id. */
  scored: Map<string, ScoredCandidate>;
  /**
   * Set, with `best` empty, when every finished path ends in a withheld candidate: the model wrote
   * nothing that is an answer from these passages. Why, one reason each.
   */
  withheld?: Withheld['reason'][];
}

export type DecodeEvent =
  | {
      type: 'retrieval-decision';
      depth: number;
      parentId: string | null;
      probs: RetrieveProbs | null;
      retrieve: boolean;
    }
  | { type: 'retrieved'; depth: number; parentId: string | null; passages: ScoredPassage[] }
  | { type: 'text'; depth: number; parentId: string | null; passageId: string | null; text: string }
  | { type: 'candidate'; candidate: Candidate }
  | { type: 'beam'; depth: number; kept: string[] }
  | { type: 'gated'; depth: number; parentId: string | null; skipped: SkippedPassage[] };

export interface DecodeResult {
  tree: AnswerTree;
  ranking: Ranking;
  /** True when the decode was aborted; the tree holds what was finished. */
  aborted: boolean;
}
