/**
 * FakeRetriever — a Retriever port double over an in-memory list of passages.
 *
 *   const retriever = new FakeRetriever([passage('p1', 'Paris is the capital of France.')]);
 *   new FakeRetriever(fn)   // or answer every query with fn(query, k)
 *
 * By default it ranks passages by word overlap with the query (cosine over word sets) and
 * returns the top k with overlap > 0, so tests about "the passage that shares the question's
 * words comes first" hold. `retriever.calls` records { query, k } for every call. An
 * already-aborted signal rejects with an AbortError.
 */
import type { Passage, Retriever, ScoredPassage } from '../../src/core/ports';

export function passage(id: string, text: string, title = `Doc ${id}`, index = 0): Passage {
  return { id, docId: id.split('#')[0] ?? id, title, text, index };
}

const wordSet = (s: string): Set<string> => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export function overlap(a: string, b: string): number {
  const x = wordSet(a);
  const y = wordSet(b);
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / Math.sqrt(x.size * y.size);
}

export class FakeRetriever implements Retriever {
  readonly calls: { query: string; k: number }[] = [];

  constructor(private readonly source: Passage[] | ((query: string, k: number) => ScoredPassage[])) {}

  async retrieve(query: string, k: number, signal?: AbortSignal): Promise<ScoredPassage[]> {
    this.calls.push({ query, k });
    if (signal?.aborted) {
      const e = new Error('The operation was aborted.');
      e.name = 'AbortError';
      throw e;
    }
    if (typeof this.source === 'function') return this.source(query, k);
    return this.source
      .map((p) => ({ ...p, score: overlap(query, `${p.title} ${p.text}`) }))
      .filter((p) => p.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }
}
