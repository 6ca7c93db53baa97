// When the page asks for persistent storage, re-reads the estimate and warns: at the
// first model download, at the first document the user adds, and whenever a download
// or a write fails for lack of room. Wiring only: the store is browser/storage-quota.ts, the words view/storage-messages.ts.
import type { LibraryActions } from '../view/library-panel';
import type { StatusStore } from '../state/worker-status';
import type { StorageStore } from '../browser/storage-quota';
import { quotaMessage } from '../view/storage-messages';

export interface ModelDownload {
  label: string;
  /** Upper bound of what the download stores, in bytes; null when unknown (custom builds). */
  bytes: number | null;
}

export function watchStorageMoments(opts: {
  status: StatusStore;
  storage: StorageStore;
  /** The model the generator is about to load. */
  model: () => ModelDownload;
}): () => void {
  const { status, storage } = opts;
  let last = status.get();
  void storage.refresh();
  return status.subscribe(() => {
    const now = status.get();
    const was = last;
    last = now;
    const gen = now.generator;
    if (gen.state === 'loading' && was.generator.state !== 'loading') {
      void storage.persist();
      const m = opts.model();
      if (m.bytes) void storage.checkFits(m.bytes, m.label);
      else void storage.refresh();
    }
    if (gen.state === 'error' && was.generator.state !== 'error') {
      const error = `${gen.error ?? ''} ${gen.suggestion ?? ''}`;
      const label = `the model ${opts.model().label}`;
      if (quotaMessage(error, label))
        void storage.refresh().then(() => storage.warn(quotaMessage(error, label, storage.get().estimate)!));
    }
    const settled = (name: 'generator' | 'evaluator') => now[name].state === 'ready' && was[name].state !== 'ready';
    if (settled('generator') || settled('evaluator')) void storage.refresh();
  });
}

/** The library's actions, asking for persistence before the user's first own document and re-reading the estimate after. */
export function withStorage(actions: LibraryActions, storage: StorageStore): LibraryActions {
  const own =
    <A extends unknown[]>(fn: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      void storage.persist();
      try {
        await fn(...args);
      } finally {
        void storage.refresh();
      }
    };
  return {
    ...actions,
    addFiles: own(actions.addFiles),
    addText: own(actions.addText),
    remove: async (id) => {
      await actions.remove(id);
      void storage.refresh();
    },
  };
}
