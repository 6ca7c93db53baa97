import type { Embedder, Retriever, ScoredPassage } from '../core/ports';
import type { EvalItem } from './question-set';

/**
 * Retrieval over the documents a question brings with it (PopQA-style sets ship their own
 * passages). Each document is one passage; ranking is by embedding cosine, like the library.
 */
export function documentRetriever(item: EvalItem & { documents: NonNullable<EvalItem['documents']> }, embedder: Embedder): Retriever {
  const passages = item.documents.map((d, k) => ({ id: `${item.id}/doc${k}#0`, docId: `${item.id}/doc${k}`, title: d.title, text: d.text, index: 0 }));
  let vectors: Promise<Float32Array[]> | null = null;
  return {
    async retrieve(query, k, signal) {
      vectors ??= embedder.embed(passages.map((p) => `${p.title}\n${p.text}`), signal);
      const docVecs = await vectors;
      const [q] = await embedder.embed([query], signal);
      if (!q) throw new Error('the embedder returned no vector for the query');
      return passages
        .map((p, i): ScoredPassage => ({ ...p, score: dot(q, docVecs[i] ?? new Float32Array(q.length)) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    },
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}
