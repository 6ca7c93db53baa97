// Remembers the cross-encoder's relevance probability of each (query, text) pair, so the
// retriever's re-rank, ISREL and CRAG's retrieval evaluator never score the same pair twice.
// Only the pairs not yet known go to the model, in one call.
import type { PassageJudge, RelevanceScorer } from './hybrid';
import type { Passage } from './ports';

export interface CachedScorer extends RelevanceScorer {
  /** Pairs sent to the model so far, and pairs answered from memory. */
  stats(): { scored: number; reused: number };
}

export function cachedScorer(score: RelevanceScorer, capacity = 4096): CachedScorer {
  const known = new Map<string, number>();
  let scored = 0;
  let reused = 0;
  const key = (q: string, t: string) => `${q.length}:${q}\u0000${t}`;
  const remember = (k: string, v: number) => {
    if (known.size >= capacity) known.delete(known.keys().next().value as string);
    known.set(k, v);
  };
  const fn = async (query: string, texts: string[], signal?: AbortSignal): Promise<number[]> => {
    const todo: string[] = [];
    const seen = new Set<string>();
    for (const t of texts) {
      if (known.has(key(query, t)) || seen.has(t)) continue;
      seen.add(t);
      todo.push(t);
    }
    if (todo.length) {
      const fresh = await score(query, todo, signal);
      if (fresh.length !== todo.length)
        throw new Error(`the relevance model returned ${fresh.length} scores for ${todo.length} texts`);
      todo.forEach((t, i) => remember(key(query, t), fresh[i]!));
      scored += todo.length;
    }
    reused += texts.length - todo.length;
    // Read back after the call: a text evicted meanwhile (a tiny capacity) is scored on its own.
    return Promise.all(texts.map(async (t) => known.get(key(query, t)) ?? (await score(query, [t], signal))[0]!));
  };
  return Object.assign(fn, { stats: () => ({ scored, reused }) });
}

/**
 * The generator's judge remembering its answers (by query and passage id): the decode searches
 * again at each step, and a passage met again for the same search is not judged a second time
 * (each judgement is a turn of the model). One a run: the memory goes with it.
 */
export function cachedJudge(judge: PassageJudge, capacity = 1024): PassageJudge {
  const known = new Map<string, number>();
  const key = (q: string, p: Passage) => `${q.length}:${q}\u0000${p.id}`;
  return async (query, passages, signal) => {
    const todo = passages.filter((p, i) => !known.has(key(query, p)) && passages.findIndex((x) => x.id === p.id) === i);
    if (todo.length) {
      const fresh = await judge(query, todo, signal);
      if (fresh.length !== todo.length)
        throw new Error(`the generator returned ${fresh.length} judgements for ${todo.length} passages`);
      todo.forEach((p, i) => {
        if (known.size >= capacity) known.delete(known.keys().next().value as string);
        known.set(key(query, p), fresh[i]!);
      });
    }
    // Evicted meanwhile (only past `capacity` passages in one call): neutral, the first stage decides.
    return passages.map((p) => known.get(key(query, p)) ?? 0.5);
  };
}
