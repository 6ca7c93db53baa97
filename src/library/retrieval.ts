// Retrieval over the library: the core's hybrid retriever (words, meaning or both, then the
// optional cross-encoder re-rank) with the question embedded here, the search in the index
// worker and the passages read from IndexedDB.
import { hybridRetrieve, type RetrievalSettings } from '../core/hybrid';
import type { Retriever } from '../core/ports';
import { normalise } from '../core/vector-index';
import type { LibraryStore } from './store';
import type { LibraryOptions } from './types';

export function libraryRetriever(store: LibraryStore, opts: Pick<LibraryOptions, 'embedder' | 'index' | 'rerank'>, settings: RetrievalSettings): Retriever {
  const { embedder, index, rerank } = opts;
  return {
    retrieve: (query, k, signal) =>
      hybridRetrieve(
        {
          embedQuery: async (q, sig) => {
            const [vector] = await (embedder.embedQueries ?? embedder.embed).call(embedder, [q], sig);
            if (!vector) throw new Error('the embedder returned no vector for the question');
            return normalise(vector, vector.length);
          },
          search: (req) => index.hybrid(req),
          passages: (ids) => store.getPassages(ids),
          ...(rerank ? { rerank } : {}),
        },
        query,
        k,
        settings,
        signal,
      ),
  };
}
