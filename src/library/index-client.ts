// The main thread's handle on the index worker. Flat is the default: it measured
// faster than voy at every size in `npm run bench` (see README).
import * as Comlink from 'comlink';
import { FlatIndex } from '../core/flat-index';
import type { IndexKind } from '../core/vector-index';
import { IndexHost, type IndexHandle } from './index-host';
import type { IndexWorkerApi } from './protocol/index-worker';

export const DEFAULT_INDEX_KIND: IndexKind = 'flat';

export interface IndexClient extends IndexHandle {
  terminate(): void;
}

/** Starts the index worker with the selected implementation. */
export async function createIndexClient(kind: IndexKind = DEFAULT_INDEX_KIND): Promise<IndexClient> {
  // A URL, not an import: Vite finds and bundles the worker only when `new URL(…, import.meta.url)` sits inline in `new Worker`.
  const worker = new Worker(new URL('../../workers/index.worker.ts', import.meta.url), { type: 'module', name: 'index' });
  const remote = Comlink.wrap<IndexWorkerApi>(worker);
  await remote.select(kind);
  return {
    kind: () => remote.kind(),
    add: async (ids, vectors) => {
      // Structured clone copies the vectors; the caller keeps its own.
      await remote.add(ids, vectors);
    },
    remove: (ids) => remote.remove(ids),
    search: (query, k) => remote.search(query, k),
    size: () => remote.size(),
    dim: () => remote.dim(),
    clear: () => remote.clear(),
    serialize: () => remote.serialize(),
    load: (bytes) => remote.load(bytes),
    addText: (docs) => remote.addText(docs),
    hybrid: (req) => remote.hybrid(req),
    lexicalSnapshot: () => remote.lexicalSnapshot(),
    loadLexical: (s) => remote.loadLexical(s),
    reconcileLexical: (ids) => remote.reconcileLexical(ids),
    lexicalSize: () => remote.lexicalSize(),
    terminate: () => {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/** The same index on the calling thread, where workers are unavailable (and in Node). */
export function createInProcessIndex(): IndexHandle {
  return new IndexHost('flat', (_kind, dim) => new FlatIndex(dim));
}
