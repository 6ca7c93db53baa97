// Refreshes the offline panel's list of the models this browser holds (state/offline-inventory.ts
// holds its shape); a listing that fails shows as none rather than as an error, since the panel
// only informs.
import { createStore } from '../state/store';
import type { CachedModels, CachedModelsStore } from '../state/offline-inventory';

export function createCachedModelsStore(list: () => Promise<CachedModels>): CachedModelsStore {
  const store = createStore<CachedModels | null>(null);
  return {
    get: store.get,
    subscribe: store.subscribe,
    async refresh() {
      try {
        store.set(await list());
      } catch {
        store.set({ evaluator: [], generator: [] });
      }
    },
  };
}
