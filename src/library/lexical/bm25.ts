// BM25, once, for every word list the page ranks: the in-tab word index (lexical-index.ts),
// the sharded corpus's writer (the weights it stores) and its reader (how it scales them).
// A question's hits from the user's library and from a site corpus are merged by score
// (site-corpus.ts mergeHits), so both must be this one formula on this one scale.
//
// It is BM25+ as MiniSearch 7 computes it (the word index's oracle, test/oracle): k1 = 1.2,
// b = 0.7, δ = 0.5; a passage's length is its number of distinct terms; the sum over the
// question's terms is multiplied by how many of them the passage holds; and the result is
// divided by the question's ideal score, so 1 means "holds every rare term of the question"
// on every library and corpus alike. It is not capped at 1: a passage holding several of a
// long question's terms passes the ideal (the multiplication by matched terms), and capping
// gave most of a real question's top passages the same score (median 14 of the top 50 on the
// labelled real set), which erased the words' ranking wherever scores are fused. The
// arithmetic keeps MiniSearch's order, so scores agree with it to the last bit.

export const BM25 = { k1: 1.2, b: 0.7, delta: 0.5 } as const;

/** Inverse document frequency of a term in `df` of `passages` passages (MiniSearch's, never negative). */
export function idf(df: number, passages: number): number {
  return Math.log(1 + (passages - df + 0.5) / (df + 0.5));
}

/** The part of a term's score that depends on the passage: saturating in `tf`, lower for long passages. */
export function tfPart(tf: number, length: number, avgLength: number): number {
  const { k1, b } = BM25;
  return (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength));
}

/** One term's BM25+ score in one passage (`length` in distinct terms). */
export function termScore(termIdf: number, tf: number, length: number, avgLength: number): number {
  return withIdf(termIdf, tfPart(tf, length, avgLength));
}

/** A term's score from its idf and its `tfPart` (for a writer that ranks postings by the part before it knows the idf). */
export function withIdf(termIdf: number, part: number): number {
  return termIdf * (BM25.delta + part);
}

/** What a passage of average length holding each term once would score: the scale's 1 (never 0). */
export function idealScore(idfs: Iterable<number>): number {
  let ideal = 0;
  for (const w of idfs) ideal += w * (BM25.delta + 1);
  return ideal > 0 ? ideal : 1;
}

/** A passage's score on the shared scale (1 = the ideal), from the sum of its terms' scores and how many question terms it holds. */
export function scaledScore(sum: number, matched: number, ideal: number): number {
  return (sum * matched) / ideal;
}
