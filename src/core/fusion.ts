// Hybrid retrieval: fusing a lexical (BM25) ranking with a dense (embedding) ranking.
// Both fusions are measured in `npm run bench -- retrieval`. The weighted sum is the default:
// reciprocal rank fusion lets any passage found by both lists beat one found first by a
// single list, so when the embedder cannot read an identifier (its list is near-random among
// passages worded alike) RRF buries the one passage that holds it.

/** One ranked list's hit: an id and that searcher's own score (BM25 or cosine). */
export interface RankedHit {
  id: string;
  score: number;
}

/** A fused candidate, with where it stood in each list (1-based; absent when the list missed it). */
export interface FusedHit {
  id: string;
  /** The fused score, higher is better. */
  score: number;
  lexicalRank?: number;
  denseRank?: number;
  lexicalScore?: number;
  denseScore?: number;
}

export type FusionMethod = 'rrf' | 'weighted';
export const DEFAULT_FUSION: FusionMethod = 'weighted';

/** Which searches run: words only (BM25), meaning only (embeddings), or both fused. */
export type SearchMode = 'words' | 'meaning' | 'both';

/** Cormack et al.'s constant: damps the head of each list so one list cannot dominate. */
export const RRF_K = 60;
/** Weight of the dense list (cosine) in the weighted sum; the lexical list (BM25 / ideal) gets the rest. */
export const DENSE_WEIGHT = 0.5;

export interface FusionOptions {
  method?: FusionMethod;
  /** Length of the fused list. */
  limit: number;
  rrfK?: number;
  denseWeight?: number;
  /**
   * Weighted sum only: the cosine of passages the dense list did not reach (found by words alone),
   * so they are scored by their true similarity rather than as 0.
   */
  denseScoreOf?: (id: string) => number | undefined;
}

/**
 * Fuses two best-first lists into one, best first. Ties break by the better of the two
 * ranks, then by id, so the order never depends on Map iteration or input order.
 */
export function fuse(lexical: readonly RankedHit[], dense: readonly RankedHit[], opts: FusionOptions): FusedHit[] {
  const method = opts.method ?? DEFAULT_FUSION;
  const byId = new Map<string, FusedHit>();
  const entry = (id: string): FusedHit => {
    let e = byId.get(id);
    if (!e) byId.set(id, (e = { id, score: 0 }));
    return e;
  };
  lexical.forEach((h, i) => {
    const e = entry(h.id);
    if (e.lexicalRank !== undefined) return; // a duplicate id keeps its best rank
    e.lexicalRank = i + 1;
    e.lexicalScore = h.score;
  });
  dense.forEach((h, i) => {
    const e = entry(h.id);
    if (e.denseRank !== undefined) return;
    e.denseRank = i + 1;
    e.denseScore = h.score;
  });
  const all = [...byId.values()];
  if (method === 'rrf') {
    const k = opts.rrfK ?? RRF_K;
    for (const e of all)
      e.score = (e.lexicalRank ? 1 / (k + e.lexicalRank) : 0) + (e.denseRank ? 1 / (k + e.denseRank) : 0);
  } else {
    // Both scores must already mean the same for every question (cosine does; the lexical index
    // divides BM25 by the question's ideal score). Min-max per list was measured worse: it
    // stretches a list of near-equal cosines, or a lexical list of weak matches, to 0..1. Words
    // that pass the ideal (a long question's terms, several in one passage) are scaled by the
    // list's best so their order survives; a list of weak matches is left as it is.
    const w = opts.denseWeight ?? DENSE_WEIGHT;
    const top = Math.max(1, ...lexical.map((h) => h.score).filter(Number.isFinite));
    for (const e of all)
      e.score =
        (1 - w) * clamp01((e.lexicalScore ?? 0) / top) + w * clamp01(e.denseScore ?? opts.denseScoreOf?.(e.id) ?? 0);
  }
  const best = (e: FusedHit) => Math.min(e.lexicalRank ?? Infinity, e.denseRank ?? Infinity);
  all.sort((a, b) => b.score - a.score || best(a) - best(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, Math.max(0, opts.limit));
}

const clamp01 = (x: number) => (x > 1 ? 1 : x > 0 ? x : 0);

/** A single list as fused hits, so 'words' and 'meaning' modes report ranks the same way. */
export function single(hits: readonly RankedHit[], list: 'lexical' | 'dense', limit: number): FusedHit[] {
  return hits
    .slice(0, Math.max(0, limit))
    .map((h, i) =>
      list === 'lexical'
        ? { id: h.id, score: h.score, lexicalRank: i + 1, lexicalScore: h.score }
        : { id: h.id, score: h.score, denseRank: i + 1, denseScore: h.score },
    );
}
