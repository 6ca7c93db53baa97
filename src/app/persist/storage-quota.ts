// How much this site may keep, and what to say when it runs out. The browser can
// evict a site's storage under pressure unless asked to persist it; the page asks
// at the moments a user has something to lose (the first model download, the first
// own document), not on first paint, where Firefox would show a prompt out of context.
import { createStore } from '../state/store';
import { formatBytes } from '../view/progress';
import { isQuotaError } from '../../library/quota';

export interface StorageEstimate {
  usage: number;
  quota: number;
}

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

/** "1.2 GB used of 3.0 GB this site may use (1.8 GB free)". */
export function estimateText(e: StorageEstimate): string {
  return `${formatBytes(e.usage)} used of ${formatBytes(e.quota)} this site may use (${formatBytes(Math.max(0, e.quota - e.usage))} free)`;
}

/** What to delete to make room: the biggest things first. */
export const FREE_SPACE_ADVICE =
  'To make room, delete a downloaded language model you do not use (Status → Language model → Delete; each takes 0.5–4 GB), ' +
  'or remove documents you no longer need from the library, then try again.';

/**
 * The message for a quota error while storing `what` ("the document bees.md", "the model
 * Qwen2.5 1.5B"), or null when the error is something else. Nothing is half-written: the
 * library writes a document in one transaction, and model libraries cache file by file.
 */
export function quotaMessage(e: unknown, what: string, estimate?: StorageEstimate | null): string | null {
  if (!isQuotaError(e)) return null;
  const used = estimate ? ` (${estimateText(estimate)})` : '';
  return `The browser has no room left for this site to store ${what}${used}, so it was not saved. ${FREE_SPACE_ADVICE}`;
}

/** A warning when `bytes` will not fit in what the site may still use, else null. */
export function fitWarning(bytes: number, what: string, estimate: StorageEstimate | null): string | null {
  if (!estimate || !(bytes > 0)) return null;
  const free = estimate.quota - estimate.usage;
  if (bytes <= free) return null;
  return `${what} needs up to ${formatBytes(bytes)}, but this site may only store ${formatBytes(Math.max(0, free))} more (${estimateText(estimate)}). The download will probably fail. ${FREE_SPACE_ADVICE}`;
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
