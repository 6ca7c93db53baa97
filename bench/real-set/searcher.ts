// The app's retrieval over the real question set's library, in Node: the same word index, the
// same exact vector index and the same fusion (hybridSearch, as the index worker runs it), with
// the question embedded by a real embedder through the app's adapter. No re-rank: no real
// cross-encoder is in the registries these machines reach.
import type { SearchMode } from '../../src/core/fusion';
import type { HybridPorts, RelevanceScorer } from '../../src/core/hybrid';
import type { Passage } from '../../src/core/ports';
import { embeddingText } from '../../src/library/ingest';
import { hybridSearch } from '../../src/library/index-host';
import { LexicalIndex } from '../../src/library/lexical/lexical-index';
import { FlatIndex } from '../../src/vector/flat-index';
import { normalise } from '../../src/vector/vector-index';
import type { LoadedEmbedder } from '../../workers/evaluator/embedder';
import { cachedVectors } from './vector-cache';

export interface Searcher {
  /** The best `k` passages for each query, in the order of `queries`. */
  search(queries: string[], k: number, mode?: SearchMode): Promise<Passage[][]>;
  /** One query's ranked ids (for fusing two readings of a question). */
  rankedIds(query: string, vector: Float32Array, k: number, mode?: SearchMode): string[];
  embedQueries(queries: string[]): Promise<Float32Array[]>;
  passage(id: string): Passage;
  /** The app's hybrid retrieval ports over this library (core/hybrid.ts), with an optional re-ranker. */
  hybridPorts(rerank?: RelevanceScorer): HybridPorts;
}

export async function realSearcher(
  passages: Passage[],
  embedder: LoadedEmbedder,
  modelKey: string,
  log?: (s: string) => void,
  textOf: (p: Passage) => string = embeddingText,
): Promise<Searcher> {
  const texts = passages.map(textOf);
  const vectors = await cachedVectors(modelKey, 'passage', texts, (t) => embedder.embed(t), log);
  const dense = new FlatIndex(vectors[0]!.length);
  dense.add(
    passages.map((p) => p.id),
    vectors.map((v) => normalise(v, v.length)),
  );
  const lexical = new LexicalIndex();
  lexical.add(passages.map((p, i) => ({ id: p.id, text: texts[i]! })));
  const byId = new Map(passages.map((p) => [p.id, p]));
  const embedQueries = (queries: string[]) =>
    cachedVectors(modelKey, 'query', queries, (q) => embedder.embedQueries(q), log);
  const rankedIds = (query: string, vector: Float32Array, k: number, mode: SearchMode = 'both') =>
    hybridSearch({ vector, text: query, mode, limit: k }, dense, lexical).map((h) => h.id);
  return {
    embedQueries,
    rankedIds,
    passage: (id) => byId.get(id)!,
    hybridPorts: (rerank) => ({
      embedQuery: async (q) => (await embedQueries([q]))[0]!,
      search: async (req) => hybridSearch(req, dense, lexical),
      passages: async (ids) => ids.map((id) => byId.get(id)),
      ...(rerank ? { rerank } : {}),
    }),
    async search(queries, k, mode = 'both') {
      const qv = mode === 'words' ? queries.map(() => new Float32Array(0)) : await embedQueries(queries);
      return queries.map((q, i) =>
        hybridSearch({ vector: mode === 'words' ? null : qv[i]!, text: q, mode, limit: k }, dense, lexical).map(
          (h) => byId.get(h.id)!,
        ),
      );
    },
  };
}
