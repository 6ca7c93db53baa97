import { inMemoryIndex } from './in-memory-index';
import { DEFAULT_RETRIEVAL, hybridRetrieve, type RelevanceScorer, type RetrievalSettings } from '../core/hybrid';
import type { Embedder, Retriever } from '../core/ports';
import { normalise } from '../vector/vector-index';
import type { EvalItem } from './question-set';

/**
 * Retrieval over the documents a question brings with it (PopQA-style sets ship their own
 * passages). Each document is one passage; they are searched exactly like the library (words
 * and meaning fused, then the cross-encoder's re-rank, as the settings say), in-process.
 */
export function documentRetriever(
  item: EvalItem & { documents: NonNullable<EvalItem['documents']> },
  embedder: Embedder,
  opts: { rerank?: RelevanceScorer; settings?: RetrievalSettings } = {},
): Retriever {
  const passages = item.documents.map((d, k) => ({
    id: `${item.id}/doc${k}#0`,
    docId: `${item.id}/doc${k}`,
    title: d.title,
    text: d.text,
    index: 0,
  }));
  const byId = new Map(passages.map((p) => [p.id, p]));
  let index: ReturnType<typeof inMemoryIndex> | null = null;
  const build = (signal?: AbortSignal) => inMemoryIndex(passages, embedder, signal);
  return {
    retrieve(query, k, signal) {
      const ready = (index ??= build(signal).catch((e: unknown) => {
        index = null;
        throw e;
      }));
      return hybridRetrieve(
        {
          embedQuery: async (q, sig) => {
            const [v] = await (embedder.embedQueries ?? embedder.embed).call(embedder, [q], sig);
            if (!v) throw new Error('the embedder returned no vector for the query');
            return normalise(v, v.length);
          },
          search: async (req) => (await ready).hybrid(req),
          passages: async (ids) => ids.map((id) => byId.get(id)),
          ...(opts.rerank ? { rerank: opts.rerank } : {}),
        },
        query,
        k,
        opts.settings ?? DEFAULT_RETRIEVAL,
        signal,
      );
    },
  };
}
