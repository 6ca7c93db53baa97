// Checks which models this browser has downloaded and deletes one, for the picker's marks and its
// delete action (state/model-downloads.ts holds the shape). Checks and deletes run one at a
// time: a delete racing a check could otherwise leave a stale "downloaded" mark.
import { CATALOGUE, type ModelChoice } from '../../generator/catalogue';
import { choiceKey } from '../persist/custom-model';
import { createStore } from '../state/store';
import type { ModelCacheState, ModelCacheStore } from '../state/model-downloads';

export interface ModelCacheDeps {
  has(choice: ModelChoice): Promise<boolean>;
  remove(choice: ModelChoice): Promise<void>;
  /** A delete is refused while this model is being loaded. */
  loadingKey(): string | null;
}

function text(e: unknown): string {
  if (e instanceof Error) {
    const s = (e as Error & { suggestion?: string }).suggestion;
    return s ? `${e.message} ${s}` : e.message;
  }
  return String(e);
}

export function createModelCacheStore(deps: ModelCacheDeps): ModelCacheStore {
  const store = createStore<ModelCacheState>({ marks: {}, checking: false, deleting: null, error: null });
  let custom: ModelChoice[] = [];
  let queue: Promise<void> = Promise.resolve();
  const set = (patch: Partial<ModelCacheState>) => store.set((s) => ({ ...s, ...patch }));
  const serial = (job: () => Promise<void>): Promise<void> => {
    queue = queue.then(job, job);
    return queue;
  };

  async function check(): Promise<void> {
    set({ checking: true });
    const choices: ModelChoice[] = [...CATALOGUE.map((m): ModelChoice => ({ kind: 'catalogue', id: m.id })), ...custom];
    const marks: Record<string, boolean> = {};
    for (const c of choices) {
      try {
        marks[choiceKey(c)] = await deps.has(c);
      } catch {
        // Without WebGPU no build can be resolved (the page already says so): leave the mark unknown rather than wrong.
      }
    }
    set({ marks, checking: false, error: null });
  }

  return {
    get: store.get,
    subscribe: store.subscribe,
    refresh(next) {
      if (next) custom = next;
      return serial(check);
    },
    remove(choice) {
      const key = choiceKey(choice);
      if (deps.loadingKey() === key) {
        set({ error: 'This model is loading: cancel the download before deleting it.' });
        return Promise.resolve();
      }
      return serial(async () => {
        set({ deleting: key, error: null });
        let failed: string | null = null;
        try {
          await deps.remove(choice);
        } catch (e) {
          failed = `The model could not be deleted: ${text(e)}`;
        }
        set({ deleting: null });
        await check();
        if (failed) set({ error: failed });
      });
    },
  };
}
