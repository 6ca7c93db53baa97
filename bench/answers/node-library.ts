// The app's library in Node over real documents: its own parsing, chunking, word index and hybrid
// retrieval, with the real all-MiniLM-L6-v2 (q8, as the browser embeds on WASM) and the in-process
// flat vector index. Storage is fake-indexeddb (in memory). The accuracy benches retrieve from it.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { RetrievalSettings } from '../../src/core/hybrid';
import type { Retriever } from '../../src/core/ports';
import { IndexHost } from '../../src/library/index-host';
import { Library } from '../../src/library/library';
import { loadPdfJsInNode } from '../../src/library/parse/pdf-node';
import { FlatIndex } from '../../src/vector/flat-index';
import { createRealEmbedder } from '../real/real-embedder';

export interface NodeLibrary {
  library: Library;
  retriever(settings?: RetrievalSettings): Retriever;
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.pdf': 'application/pdf', '.html': 'text/html', '.htm': 'text/html' };

/** Words and meaning fused, no cross-encoder (none with real weights is in the registries). */
export const BENCH_RETRIEVAL: RetrievalSettings = { search: 'both', rerank: false };

export async function nodeLibrary(paths: string[], log: (s: string) => void = () => {}): Promise<NodeLibrary> {
  const embedder = createRealEmbedder('q8');
  const library = await Library.open({
    embedder,
    embedderId: 'all-MiniLM-L6-v2',
    index: new IndexHost('flat', (_k, dim) => new FlatIndex(dim)),
    dbName: `bench-answers-${process.pid}-${Date.now()}`,
    seed: false,
    pdf: loadPdfJsInNode,
  });
  const files = paths.map((p) => {
    const ext = p.slice(p.lastIndexOf('.')).toLowerCase();
    return { name: basename(p), type: TYPES[ext] ?? 'text/plain', bytes: new Uint8Array(readFileSync(p)) };
  });
  const t0 = Date.now();
  const added = await library.addFiles(files);
  await library.idle();
  if (added.refused.length) throw new Error(`refused: ${JSON.stringify(added.refused)}`);
  log(`library: ${files.length} files in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return {
    library,
    retriever: (s = BENCH_RETRIEVAL) => library.retrieverWith(s),
    embed: (texts) => embedder.embed(texts),
    close: async () => {
      library.close();
      await embedder.dispose();
    },
  };
}
