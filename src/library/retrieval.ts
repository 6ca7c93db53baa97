// Retrieval over the library: the core's hybrid retriever (words, meaning or both, then the
// optional re-rank by the cross-encoder or the loaded generator) with the question embedded here, the search in the index
// worker and the passages read from IndexedDB.
import { hybridRetrieve, type PassageJudge, type RetrievalSettings } from '../core/hybrid';
import type { Passage, Retriever } from '../core/ports';
import { mergeHits, type SiteCorpus } from './sharded/site-corpus';
import { normalise } from '../vector/vector-index';
import type { LibraryStorage } from './store';
import type { LibraryOptions } from './types';

export function libraryRetriever(
  store: LibraryStorage,
  opts: Pick<LibraryOptions, 'embedder' | 'index' | 'rerank'>,
  settings: RetrievalSettings,
  corpus?: SiteCorpus,
  /** The loaded generator's judge, for the settings' 'generator' reranker. */
  judge?: PassageJudge,
): Retriever {
  const { embedder, index, rerank } = opts;
  // Passages the site corpus returned for the current question (they are not in IndexedDB).
  let remote = new Map<string, Passage>();
  return {
    retrieve: (query, k, signal) =>
      hybridRetrieve(
        {
          embedQuery: async (q, sig) => {
            const [vector] = await (embedder.embedQueries ?? embedder.embed).call(embedder, [q], sig);
            if (!vector) throw new Error('the embedder returned no vector for the question');
            return normalise(vector, vector.length);
          },
          search: async (req) => {
            if (!corpus) return index.hybrid(req);
            const [local, site] = await Promise.all([index.hybrid(req), corpus(req)]);
            remote = site.passages;
            return mergeHits(local, site.hits, req.limit);
          },
          passages: async (ids) => {
            const local = await store.getPassages(ids);
            return local.map((p, i) => p ?? remote.get(ids[i]!));
          },
          ...(rerank ? { rerank } : {}),
          ...(judge ? { judge } : {}),
        },
        query,
        k,
        settings,
        signal,
      ),
  };
}
