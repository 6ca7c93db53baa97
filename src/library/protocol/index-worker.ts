// The comlink surface of workers/index.worker.ts. The worker implements this type and
// index-client.ts wraps it, so a change here is checked on both ends without src/
// importing from workers/.
import type { IndexChoice } from '../../vector/vector-index';
import type { IndexHandle } from '../index-host';

export interface IndexWorkerApi extends Omit<IndexHandle, 'terminate'> {
  /** Starts over, empty, with the chosen vector index ('auto', 'flat', 'voy' or 'compact'). */
  select(choice: IndexChoice): void;
}
