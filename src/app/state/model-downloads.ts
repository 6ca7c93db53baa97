// Which models this browser has already downloaded, for the picker's marks and its delete
// action: the store's shape. The checks and deletes run in wiring/model-downloads.ts.
import type { ModelChoice } from '../../generator/catalogue';

export interface ModelCacheState {
  /** Downloaded or not, by choiceKey; a model missing here has not been checked (or could not be). */
  marks: Record<string, boolean>;
  checking: boolean;
  /** Key of the model being deleted. */
  deleting: string | null;
  /** Why the last check or delete failed. */
  error: string | null;
}

export interface ModelCacheStore {
  get(): ModelCacheState;
  subscribe(fn: () => void): () => void;
  /** Re-checks the catalogue and the custom models given (or the ones given last time). */
  refresh(custom?: ModelChoice[]): Promise<void>;
  /** Frees the browser storage of one model, then re-checks. */
  remove(choice: ModelChoice): Promise<void>;
}
