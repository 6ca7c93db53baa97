import type { CorrectionAction } from '../ports';

/**
 * CRAG §4.3: Correct when at least one score is higher than the upper threshold, Incorrect
 * when all scores are below the lower threshold, Ambiguous otherwise.
 * Boundary convention (the paper's "higher than" / "below" read strictly): a score exactly
 * at `upper` is not Correct, a score exactly at `lower` is not below it. An empty retrieval
 * has no relevant passage, so it is Incorrect (all of zero scores are below).
 * Correct is tested first, so with lower === upper a score above both is Correct.
 */
export function classifyRetrieval(scores: readonly number[], upper: number, lower: number): CorrectionAction {
  if (scores.some((s) => s > upper)) return 'correct';
  if (scores.every((s) => s < lower)) return 'incorrect';
  return 'ambiguous';
}
