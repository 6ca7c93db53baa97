// Hosts the vector index and the lexical (BM25) index off the main thread (comlink). The flat index needs
// nothing loaded; voy's wasm is fetched from our own origin only when selected. A compact index is
// saved in OPFS (sync access handles exist only in workers) and re-opened from there.
import * as Comlink from 'comlink';
import { CompactIndex } from '../src/vector/compact-index';
import { FlatIndex } from '../src/vector/flat-index';
import type { IndexChoice, IndexKind, VectorIndex } from '../src/vector/vector-index';
import { compactPersistence } from '../src/library/compact-persistence';
import { IndexHost, type HybridRequest, type VectorOpenRequest } from '../src/library/index-host';
import { opfsFolder, removeLegacyFiles } from '../src/library/opfs-folder';
import type { LexicalDoc, StoredLexicalSnapshot } from '../src/library/lexical/lexical-index';
import type { IndexWorkerApi } from '../src/library/protocol/index-worker';
import voyWasmUrl from 'voy-search/voy_search_bg.wasm?url';

async function makeIndex(kind: IndexKind, dim: number): Promise<VectorIndex> {
  if (kind === 'flat') return new FlatIndex(dim);
  // Unsaved: a library in memory, or OPFS unavailable (IndexHost tries the saved kind first).
  if (kind === 'compact') return new CompactIndex(dim);
  // Imported lazily: a top-level await in a comlink worker's import graph hangs its first calls.
  const { loadVoy, VoyIndex } = await import('./index/voy-index');
  await loadVoy(async () => {
    const res = await fetch(voyWasmUrl);
    if (!res.ok) throw new Error(`${voyWasmUrl}: HTTP ${res.status}`);
    return res.arrayBuffer();
  });
  return new VoyIndex(dim);
}

const persistence = compactPersistence(opfsFolder);
void removeLegacyFiles();
let host = new IndexHost('auto', makeIndex, { persistence });

const api: IndexWorkerApi = {
  select(choice: IndexChoice): void {
    host = new IndexHost(choice, makeIndex, { persistence });
  },
  kind: () => host.kind(),
  openVectors: (req: VectorOpenRequest) => host.openVectors(req),
  expect: (total: number) => host.expect(total),
  vectorStatus: () => host.vectorStatus(),
  add: (ids: string[], vectors: Float32Array[]) => host.add(ids, vectors),
  remove: (ids: string[]) => host.remove(ids),
  replace: (oldIds: string[], ids: string[], vectors: Float32Array[], texts: LexicalDoc[]) =>
    host.replace(oldIds, ids, vectors, texts),
  search: (query: Float32Array, k: number) => host.search(query, k),
  size: () => host.size(),
  dim: () => host.dim(),
  clear: () => host.clear(),
  serialize: async () => {
    const bytes = await host.serialize();
    return Comlink.transfer(bytes, [bytes.buffer]);
  },
  load: (bytes: Uint8Array) => host.load(bytes),
  addText: (docs: LexicalDoc[]) => host.addText(docs),
  hybrid: (req: HybridRequest) => host.hybrid(req),
  lexicalSnapshot: async () => {
    // Transferred, not copied: at a million passages the snapshot is ~100 MB, and the index keeps no reference to it.
    const s = await host.lexicalSnapshot();
    return s ? Comlink.transfer(s, [s.bytes.buffer]) : s;
  },
  loadLexical: (s: StoredLexicalSnapshot) => host.loadLexical(s),
  reconcileLexical: (ids: string[]) => host.reconcileLexical(ids),
  lexicalSize: () => host.lexicalSize(),
};

Comlink.expose(api);
