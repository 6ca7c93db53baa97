// The main thread's handle on the index worker. 'auto' is the default: the flat index (it
// measured faster than voy at every size in `npm run bench`) while the library is small, the
// compact one once it is large (index-host.ts, docs/compact-index.md).
import * as Comlink from 'comlink';
import { CompactIndex } from '../vector/compact-index';
import { FlatIndex } from '../vector/flat-index';
import type { IndexChoice } from '../vector/vector-index';
import { IndexHost, type IndexHandle } from './index-host';
import type { IndexWorkerApi } from './protocol/index-worker';

export const DEFAULT_INDEX_KIND: IndexChoice = 'auto';

export interface IndexClient extends IndexHandle {
  terminate(): void;
}

/** Starts the index worker with the selected implementation. */
export async function createIndexClient(kind: IndexChoice = DEFAULT_INDEX_KIND): Promise<IndexClient> {
  // A URL, not an import: Vite finds and bundles the worker only when `new URL(…, import.meta.url)` sits inline in `new Worker`.
  const worker = new Worker(new URL('../../workers/index.worker.ts', import.meta.url), {
    type: 'module',
    name: 'index',
  });
  const remote = Comlink.wrap<IndexWorkerApi>(worker);
  await remote.select(kind);
  return {
    kind: () => remote.kind(),
    openVectors: (req) => remote.openVectors(req),
    expect: (total) => remote.expect(total),
    vectorStatus: () => remote.vectorStatus(),
    add: async (ids, vectors) => {
      // Structured clone copies the vectors; the caller keeps its own.
      await remote.add(ids, vectors);
    },
    remove: (ids) => remote.remove(ids),
    replace: (oldIds, ids, vectors, texts) => remote.replace(oldIds, ids, vectors, texts),
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
  return new IndexHost('auto', (kind, dim) => (kind === 'compact' ? new CompactIndex(dim) : new FlatIndex(dim)));
}
