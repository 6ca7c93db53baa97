// The search over a sharded corpus's decoded blocks, with no I/O: which tops and lists are
// nearest a question, which passages of the probed lists are its best candidates by code, their
// exact scores from their int8 rows, the word scores from the word shards (on the in-tab
// index's BM25 scale), and the fused ranking.
import { fuse, single, type FusedHit, type FusionMethod, type SearchMode } from '../../core/fusion';
import { int8Codec } from '../../vector/row-store';
import { idealScore, idf, scaledScore } from '../lexical/bm25';
import type { CentroidBlock, ListRef } from './format/centroids';
import type { CorpusIndex } from './format/index-block';
import type { ListBlock } from './format/lists';
import type { ShardedManifest } from './format/manifest';
import { pointerKey, type TextPointer } from './format/rows';
import { postingScore, type WordShard } from './format/words';
import { type CodeScore, rankTops } from './probe';
import type { Candidate } from './read-plan';

/** Each list is read this deep before fusing, as in the in-tab index. */
export const DEPTH = 50;

export type Scored = { id: string; score: number };

/** The `ntop` top centroids nearest the (unit) query. */
export function nearestTops(q: Float32Array, index: CorpusIndex, dim: number, ntop: number): number[] {
  return rankTops(q, index.tops.centroids, index.tops.subs.length, dim).slice(0, ntop);
}

/** The `nprobe` lists whose sub-centroids' codes score best for the question. */
export function nearestLists(score: CodeScore, blocks: readonly CentroidBlock[], nprobe: number): ListRef[] {
  const scores: Array<[number, ListRef]> = [];
  for (const { codes, factors, lists } of blocks)
    lists.forEach((ref, j) => scores.push([score(codes, factors, j), ref]));
  scores.sort((a, b) => b[0] - a[0] || a[1].c - b[1].c);
  return scores.slice(0, nprobe).map(([, ref]) => ref);
}

/**
 * The `m` best passages of the probed lists by their codes' scores. (The tab's compact index first
 * narrows a million rows by a cheaper pass; here the candidates are a few thousand.)
 */
export function bestByCode(
  score: CodeScore,
  probed: ReadonlyArray<{ c: number; block: ListBlock }>,
  m: number,
): Candidate[] {
  const all: Array<Candidate & { s: number }> = [];
  for (const { c, block } of probed)
    for (let i = 0; i < block.count; i++) all.push({ c, i, s: score(block.codes, block.factors, i) });
  return all
    .sort((a, b) => b.s - a.s || a.c - b.c || a.i - b.i)
    .slice(0, m)
    .map(({ c, i }) => ({ c, i }));
}

/** Exact cosines from the int8 rows, best first; ties break by id so an answer does not depend on network timing. */
export function denseScores(q: Float32Array, rows: ReadonlyArray<{ row: Uint8Array; pointer: TextPointer }>): Scored[] {
  return rows
    .map(({ row, pointer }) => ({ id: pointerKey(pointer), score: int8Codec.dot(q, row) }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * Word scores from the terms' postings, on the in-tab word index's scale (bm25.ts: the terms'
 * BM25+ summed, times the terms matched, over the question's ideal), so the weighted fusion
 * and the merge with the user's library mean the same for both. Best first, with the text
 * pointer of every passage scored.
 */
export function wordScores(
  terms: readonly string[],
  shards: readonly WordShard[],
  m: ShardedManifest,
): { scores: Scored[]; pointers: Map<string, TextPointer> } {
  const sums = new Map<string, { sum: number; matched: number }>();
  const df = new Map<string, number>();
  const pointers = new Map<string, TextPointer>();
  for (const shard of shards) {
    for (const t of terms) {
      // Own properties only: a question's "constructor" is not the shard object's.
      const entry = Object.hasOwn(shard, t) ? shard[t] : undefined;
      if (!entry) continue;
      df.set(t, entry.df);
      for (const [offset, bytes, hash, weight] of entry.p) {
        const key = pointerKey({ offset, bytes, hash });
        pointers.set(key, { offset, bytes, hash });
        const s = sums.get(key) ?? { sum: 0, matched: 0 };
        s.sum += postingScore(weight, entry.df, m.words.passages, m.version);
        s.matched++;
        sums.set(key, s);
      }
    }
  }
  const ideal = idealScore(terms.map((t) => idf(df.get(t) ?? 0, m.words.passages)));
  const scores = [...sums]
    .map(([id, s]) => ({ id, score: scaledScore(s.sum, s.matched, ideal) }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { scores, pointers };
}

/** The `k` passages kept: by words, by meaning, or both fused. */
export function fuseScores(
  mode: SearchMode,
  lexical: readonly Scored[],
  dense: readonly Scored[],
  k: number,
  fusion?: FusionMethod,
): FusedHit[] {
  // A passage found by words alone sits in a list that was not probed, so its cosine is unknown
  // here; it is taken as the weakest dense candidate's (the in-tab index reads the true one).
  const denseTop = dense.slice(0, DEPTH);
  const floor = denseTop.length ? denseTop[denseTop.length - 1]!.score : 0;
  if (mode === 'words') return single([...lexical], 'lexical', k);
  if (mode === 'meaning') return single(denseTop, 'dense', k);
  return fuse(lexical.slice(0, DEPTH), denseTop, {
    limit: k,
    denseScoreOf: () => floor,
    ...(fusion ? { method: fusion } : {}),
  });
}
