// Which retrieval stages ran for a list of passages, so a stage that did not run (no embedding
// model, no re-rank) is not shown as a miss ("–") on every passage.
import type { PassageRanks as Ranks } from '../../core/ports';

/** Which stages ran for the list the passage is in. */
export interface StagesRan {
  dense: boolean;
  rerank: boolean;
}

/** The stages that ran for any of `ranks` (a stage that ran for none did not run). */
export function stagesRan(ranks: readonly (Ranks | undefined)[]): StagesRan {
  return {
    dense: ranks.some((r) => r?.dense !== undefined),
    rerank: ranks.some((r) => r?.rerank !== undefined),
  };
}
