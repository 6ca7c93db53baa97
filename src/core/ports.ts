// The only doors between the pure core and the outside world. Workers implement
// these; tests implement them with scripted doubles. Nothing here may import a
// model library, React, the DOM or a worker API.
import type { PassageSource } from './source-location';
import type { Withheld } from './types';

/** A passage of a document, the unit the retriever returns and citations point to. */
export interface Passage {
  /** Stable id, unique in the library (e.g. `${docId}#${index}`). */
  id: string;
  docId: string;
  /** Title of the document the passage came from (used in `<paragraph>{title}\n{text}</paragraph>`). */
  title: string;
  text: string;
  /** Position of the passage in its document (0-based), for citations. */
  index: number;
  /** Character offsets of the passage in the document's extracted text. */
  start?: number;
  end?: number;
  /** Where in the document it stands (pages, headings); absent on passages stored before places were recorded. */
  source?: PassageSource;
}

export interface ScoredPassage extends Passage {
  /**
   * Retrieval score, higher is closer: when re-ranked, the cross-encoder's probability mixed with
   * the first stage's score; else the fused score (both), BM25 / ideal (words) or cosine (meaning).
   */
  score: number;
  /** Where the hybrid retriever found it, for the why-panel; absent from other retrievers. */
  ranks?: PassageRanks;
}

/** A passage's place in each stage of hybrid retrieval (ranks are 1-based; absent when that list missed it or the stage did not run). */
export interface PassageRanks {
  lexical?: number;
  dense?: number;
  /** The judge's probability (the cross-encoder's, or the generator's p(Yes)), when the candidates were re-ranked. */
  rerank?: number;
  /** Set when the loaded generator judged the re-rank, not the cross-encoder. */
  rerankBy?: 'generator';
}

export interface Retriever {
  retrieve(query: string, k: number, signal?: AbortSignal): Promise<ScoredPassage[]>;
}

/**
 * Raw (unnormalised) probabilities of each alternative in a reflection-token group,
 * exactly as read from the model. The core normalises each group over itself only.
 */
export interface RetrieveProbs {
  retrieval: number;
  noRetrieval: number;
  /** `[Continue to Use Evidence]`, when the generator can emit it. */
  continueEvidence?: number;
}
export interface RelProbs {
  relevant: number;
  irrelevant: number;
}
export interface SupProbs {
  full: number;
  partial: number;
  none: number;
}
/** p([Utility:1]) … p([Utility:5]). */
export type UseProbs = [number, number, number, number, number];

/**
 * Where the critique probabilities of a candidate come from. 'auto' picks by the generator's
 * kind (./critique-source.ts): a native Self-RAG model's own tokens, else the evaluator's models.
 */
export type CritiqueSource = 'auto' | 'generator' | 'evaluator' | 'blend';
/** A critique source once 'auto' is decided. */
export type ResolvedCritiqueSource = Exclude<CritiqueSource, 'auto'>;

export interface RetrievalDecisionRequest {
  question: string;
  /** Text of the segments already chosen on this path, in order. */
  previous: string[];
  signal?: AbortSignal;
}

export interface SegmentRequest {
  question: string;
  previous: string[];
  /**
   * The answers of the earlier turns of the question's thread, oldest first (a follow-up's): a
   * candidate that repeats one is not an answer (types.ts, Withheld: 'earlier-answer'). Absent
   * for a first question.
   */
  earlier?: readonly string[];
  /** The passage this candidate is written from, or null for a segment without retrieval. */
  passage: Passage | null;
  /** Called with the text of the segment so far, for streaming to the UI. */
  onText?: (textSoFar: string) => void;
  signal?: AbortSignal;
  /**
   * The critiques the generator should read besides utility. The core asks only for what the
   * critique source uses (a prompted model's relevance and support come from the evaluator by
   * default), so a prompted generator spends no turns on grades nobody reads. Absent: both.
   * A native model writes its reflection tokens anyway and reads them all.
   */
  critiques?: { rel: boolean; sup: boolean };
}

export interface GeneratedSegment {
  /** Segment text with every reflection token stripped. */
  text: string;
  /** Absent when the candidate was written without a passage. */
  rel?: RelProbs;
  sup?: SupProbs;
  use?: UseProbs;
  /** Sum of the log-probabilities of the segment's text tokens (for the optional sequence score). */
  logprob?: number;
  tokenCount: number;
  /** True when the generator ended the answer (end of sequence) after this segment. */
  done: boolean;
  /** Set when the generator's output was malformed (missing slot, truncated); the candidate is kept but marked. */
  problem?: string;
  /** Set when what was written is not an answer (types.ts, Withheld). */
  withheld?: Withheld;
}

/** Work a generator did, so cost can be measured and compared. */
export interface GeneratorCost {
  promptTokens: number;
  decodedTokens: number;
  calls: number;
}

export interface Generator {
  /** p([Retrieval]) vs p([No Retrieval]) (and optionally [Continue to Use Evidence]) before the next segment. */
  decideRetrieval(req: RetrievalDecisionRequest): Promise<RetrieveProbs>;
  /** One candidate per request, processed as a batch (one request per retrieved passage). */
  generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]>;
  /**
   * p(Yes) that each passage answers the question, read from one judge turn a passage: the
   * generator as the retrieval's re-ranker (hybrid.ts, the 'generator' reranker). A prompted
   * model only; a native Self-RAG model is not asked.
   */
  judgePassages?(question: string, passages: Passage[], signal?: AbortSignal): Promise<number[]>;
  /** Cumulative cost since creation or the last reset. */
  cost?(): GeneratorCost;
  /** True for a native Self-RAG model, which was trained to write its own reflection tokens. */
  readonly native?: boolean;
}

/** The evaluator: a cross-encoder for relevance and an NLI model for support. */
export interface Critic {
  /** ISREL probabilities of each passage for the question. */
  relevance(question: string, passages: Passage[], signal?: AbortSignal): Promise<RelProbs[]>;
  /** ISSUP probabilities of each text given its passage (pairs by index). */
  support(pairs: { passage: Passage; text: string }[], signal?: AbortSignal): Promise<SupProbs[]>;
}

export interface Embedder {
  /** Unit-length embeddings, one per text (passages: the model's passage prefix, if any, is applied). */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Embeddings of search queries, for models that embed queries differently (e5 "query: ", bge's instruction); `embed` otherwise. */
  embedQueries?(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** CRAG's three actions on a retrieval (see the CRAG paper). */
export type CorrectionAction = 'correct' | 'incorrect' | 'ambiguous';

export interface RetrievalCorrection {
  action: CorrectionAction;
  /** The knowledge to generate from: refined passages (kept strips recomposed), possibly from a re-search. */
  passages: ScoredPassage[];
  /** Set when no reliable evidence was found: answer without retrieval (marked) or abstain. */
  noEvidence?: 'answer-without-retrieval' | 'abstain';
  /** Human-readable account of what was done (rewrite used, strips kept), for the UI. */
  details?: string;
  /** The keyword query the question was rewritten into, when a re-search happened. */
  rewrite?: string;
  /** The retrieval evaluator's score of every passage it judged, original and re-searched. */
  evaluated?: { passageId: string; score: number; source: KnowledgeSource }[];
  /** Every knowledge strip, kept or dropped, so the UI can show what the refinement did. */
  strips?: KnowledgeStrip[];
}

/** Where a piece of CRAG knowledge came from: the first retrieval, the re-search with the rewrite, or the external source. */
export type KnowledgeSource = 'retrieval' | 'research' | 'external';

/** A few sentences of a passage, scored by the retrieval evaluator (CRAG's decompose-then-recompose). */
export interface KnowledgeStrip {
  passageId: string;
  /** Position of the strip in its passage (0-based). */
  index: number;
  text: string;
  score: number;
  kept: boolean;
  dropped?: 'below-threshold' | 'beyond-top-k';
  source: KnowledgeSource;
}

/** Corrective retrieval (Self-CRAG): plugged into the decode loop between retrieval and generation. */
export interface Corrector {
  correct(question: string, passages: ScoredPassage[], signal?: AbortSignal): Promise<RetrievalCorrection>;
}

/** Free-form instruction following: CRAG's query rewrite, RAGAS's statements and generated questions. */
export interface Writer {
  /** `onText` receives the reply written so far, for engines that stream (others may never call it). */
  write(
    instruction: string,
    opts?: { maxTokens?: number; signal?: AbortSignal; onText?: (textSoFar: string) => void },
  ): Promise<string>;
}

/** An optional outside source for CRAG (e.g. a public encyclopedia search), used only when enabled and online. */
export interface ExternalSearch {
  readonly name: string;
  search(query: string, k: number, signal?: AbortSignal): Promise<ScoredPassage[]>;
}
