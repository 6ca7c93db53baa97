/**
 * CRAG settings. The paper's evaluator is a fine-tuned T5-large scoring in [-1, 1], with
 * (upper, lower) set empirically to (0.59, -0.99) on PopQA and (0.5, -0.91) on PubHealth/ARC,
 * and a strip filter threshold of -0.5. Ours is a cross-encoder whose logit goes through a
 * sigmoid, so scores are probabilities in [0, 1] and the paper's numbers do not carry over:
 * - upper 0.5: the cross-encoder's own decision boundary (logit 0), i.e. "Correct" needs at
 *   least one passage the evaluator thinks is more likely relevant than not;
 * - lower 0.05: the paper's lower thresholds sit at the very bottom of its range (-0.91 maps
 *   linearly to 0.045 on [0, 1]), so "Incorrect" means every passage is confidently irrelevant;
 * - strip threshold 0.25: the paper's -0.5 mapped linearly onto [0, 1].
 */
export type NoEvidencePolicy = 'answer-without-retrieval' | 'abstain';

/**
 * Where the strips' top-k is taken (docs/conformance.md, "CRAG refinement"). 'per-passage' is
 * the default: Self-CRAG writes one candidate per kept passage, cited to that passage, so each
 * passage keeps its own best strips and the critique still has a choice of passages. The
 * reference (select_relevants) pools the strips of all passages into one ranked list, because
 * CRAG feeds all its knowledge to a single generation; 'across-passages' does that, and then
 * one strong passage can take every slot and leave the beam a single candidate.
 */
export type StripPool = 'per-passage' | 'across-passages';
export const STRIP_POOLS: readonly StripPool[] = ['per-passage', 'across-passages'];

export interface CragSettings {
  /** A retrieval is Correct when some passage scores strictly above this. */
  upper: number;
  /** A retrieval is Incorrect when every passage scores strictly below this. */
  lower: number;
  /** Knowledge strips scoring strictly below this are dropped. */
  stripThreshold: number;
  /** At most this many strips are kept per passage (or in all, see stripPool), best first (the paper's top-k = 5). */
  stripTopK: number;
  /** Where the top-k is taken. */
  stripPool: StripPool;
  /**
   * Sentences per knowledge strip; passages of one or two sentences stay a single strip
   * (Appendix B.2). Default 2 where the reference's 'excerption' mode joins 3 of its units:
   * its units are cut at ". " and "?" with fragments of five words or fewer glued to the one
   * before, so they run longer than sentences, and its published run ('selection' mode) does
   * not decompose at all. Our passages are ~200-token chunks; 2 sentences gives about five
   * strips each, enough for the filter to drop something, each still one claim with its context.
   */
  sentencesPerStrip: number;
  /** Passages fetched by the re-search with the rewritten query, and kept in the end. */
  k: number;
  /** Use the external source (when one is configured and the page is online). Off by default. */
  externalEnabled: boolean;
  /** What to do when no reliable evidence was found. */
  noEvidence: NoEvidencePolicy;
}

export const DEFAULT_CRAG_SETTINGS: Readonly<CragSettings> = Object.freeze({
  upper: 0.5,
  lower: 0.05,
  stripThreshold: 0.25,
  stripTopK: 5,
  stripPool: 'per-passage',
  sentencesPerStrip: 2,
  k: 3,
  externalEnabled: false,
  noEvidence: 'answer-without-retrieval',
});
