// How much this site may keep. The browser can evict a site's storage under pressure unless
// asked to persist it; the page asks at the moments a user has something to lose (the first model
// download, the first own document), not on first paint, where Firefox would show a prompt out of
// context. What the page says about it is worded in view/storage-messages.ts.
import { createStore } from '../state/store';
import { fitWarning, type StorageEstimate } from '../view/storage-messages';

export interface StorageState {
  /** null until known (or where the browser has no StorageManager). */
  estimate: StorageEstimate | null;
  /** true once the browser promised not to evict; null until asked or checked. */
  persisted: boolean | null;
  /** A download or write that will not fit, said before it runs out. */
  warning: string | null;
}

/** The parts of `navigator.storage` used here (injected by tests). */
export interface StorageManagerLike {
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
}

export interface StorageStore {
  get(): StorageState;
  subscribe(fn: () => void): () => void;
  /** Re-reads the estimate (after a download, an ingestion, a delete). */
  refresh(): Promise<void>;
  /** Asks the browser to keep this site's data; asked once per page, the first time it matters. */
  persist(): Promise<void>;
  /** Warns when `bytes` will not fit; clears the warning otherwise. Returns the warning. */
  checkFits(bytes: number, what: string): Promise<string | null>;
  /** Shows a message about storage (a quota error from a download). */
  warn(text: string): void;
  clearWarning(): void;
}

export function createStorageStore(
  manager: StorageManagerLike | undefined = globalThis.navigator?.storage,
): StorageStore {
  const store = createStore<StorageState>({ estimate: null, persisted: null, warning: null });
  const set = (patch: Partial<StorageState>) => store.set((s) => ({ ...s, ...patch }));
  let asked: Promise<void> | null = null;

  async function refresh(): Promise<void> {
    try {
      const e = await manager?.estimate?.();
      if (e && typeof e.quota === 'number') set({ estimate: { usage: e.usage ?? 0, quota: e.quota } });
      if (store.get().persisted === null && manager?.persisted) set({ persisted: await manager.persisted() });
    } catch {
      // No estimate (an opaque origin, an old browser): the panel just does not show one.
    }
  }

  return {
    get: store.get,
    subscribe: store.subscribe,
    refresh,
    persist() {
      asked ??= (async () => {
        if (!manager?.persist) return;
        try {
          const already = (await manager.persisted?.()) ?? false;
          set({ persisted: already || (await manager.persist()) });
        } catch {
          set({ persisted: false });
        }
      })();
      return asked;
    },
    async checkFits(bytes, what) {
      await refresh();
      const warning = fitWarning(bytes, what, store.get().estimate);
      set({ warning });
      return warning;
    },
    warn: (text) => set({ warning: text }),
    clearWarning: () => set({ warning: null }),
  };
}
