// The app's library in Node over the labelled real set's documents: its own word index and hybrid
// retrieval, seeded from the set's pre-built index (./set-index.ts: the app's parse/chunk/embed
// code with the real all-MiniLM-L6-v2 q8, as the browser embeds on WASM) the way a site's library
// is seeded on first visit, with the in-process flat vector index. Storage is fake-indexeddb (in
// memory). The answer benches retrieve from it.
import 'fake-indexeddb/auto';
import { dirname } from 'node:path';
import type { RelevanceScorer, RetrievalSettings } from '../../src/core/hybrid';
import type { Retriever } from '../../src/core/ports';
import { IndexHost } from '../../src/library/index-host';
import { Library } from '../../src/library/library';
import { FlatIndex } from '../../src/vector/flat-index';
import { fileFetch } from '../../test/doubles/file-fetch';
import { createRealEmbedder } from '../real/real-embedder';
import { ensureSetIndex, setDocuments } from './set-index';

export interface NodeLibrary {
  library: Library;
  retriever(settings?: RetrievalSettings): Retriever;
  /** Cosine of `a` against each text, each embedded alone (q8 activations are quantised per batch). */
  cosines(a: string, texts: string[]): Promise<number[]>;
  /** The file each document came from, by document id. */
  fileOf: Map<string, string>;
  close(): Promise<void>;
}

/** Words and meaning fused, no cross-encoder (none with real weights is in the registries). */
export const BENCH_RETRIEVAL: RetrievalSettings = { search: 'both', rerank: false };

const BASE = 'http://bench.local/';

/**
 * `rerank`: a cross-encoder for the re-rank stage (the shipped critic's relevance), used by
 * `retriever(settings)` when the settings ask for a re-rank, as the page's library does.
 */
export async function setLibrary(
  log: (s: string) => void = () => {},
  opts: { rerank?: RelevanceScorer } = {},
): Promise<NodeLibrary> {
  const index = await ensureSetIndex(log);
  const embedder = createRealEmbedder('q8');
  const library = await Library.open({
    embedder,
    embedderId: 'all-MiniLM-L6-v2',
    index: new IndexHost('flat', (_k, dim) => new FlatIndex(dim)),
    dbName: `bench-answers-${process.pid}-${Date.now()}`,
    baseUrl: BASE,
    // The pre-built index is served as a site serves it, at index/.
    fetch: fileFetch(dirname(index), BASE),
    siteCorpus: false,
    ...(opts.rerank ? { rerank: opts.rerank } : {}),
  });
  await library.idle();
  const docs = await library.list();
  if (docs.length === 0) throw new Error(`The set's pre-built index in ${index} seeded nothing.`);
  const byName = new Map(setDocuments().map((d) => [d.name, d.path]));
  const fileOf = new Map(docs.map((d) => [d.id, byName.get(d.name) ?? d.name]));
  log(`library: ${docs.length} documents, ${docs.reduce((n, d) => n + d.passageCount, 0)} passages`);
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
  return {
    library,
    retriever: (s = BENCH_RETRIEVAL) => library.retrieverWith(s),
    async cosines(a, texts) {
      const [q] = await embedder.embed([a]);
      const out: number[] = [];
      for (const t of texts) out.push(dot(q!, (await embedder.embed([t]))[0]!));
      return out;
    },
    fileOf,
    close: async () => {
      library.close();
      await embedder.dispose();
    },
  };
}
