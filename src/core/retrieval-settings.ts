// How a question is searched (hybrid.ts does the searching): by words, by meaning or both, and
// whether and by whom the fused candidates are re-ranked. Apart from the search itself, so that
// the page's saved settings (app/persist/settings.ts) read them without loading it.
import type { SearchMode } from './fusion';

/** Who judges the re-rank: the evaluator's cross-encoder, or the loaded generator in a judge turn. */
export type Reranker = 'cross-encoder' | 'generator';

export interface RetrievalSettings {
  search: SearchMode;
  /** Re-rank the fused candidates before taking the best k. */
  rerank: boolean;
  /**
   * Who re-ranks (absent: the cross-encoder). The generator is asked only where one writes the
   * answer and judges (a prompted model); elsewhere the cross-encoder re-ranks.
   */
  reranker?: Reranker;
}

export const DEFAULT_RETRIEVAL: RetrievalSettings = { search: 'both', rerank: true, reranker: 'cross-encoder' };
