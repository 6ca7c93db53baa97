// How a question finds its candidates in a sharded corpus: the nearest top centroids (int8,
// from the start-up block), then the best sub-centroids of those tops' blocks and the best
// passages of the probed lists, both by their 1-bit codes' asymmetric score. The reader runs
// it on fetched blocks; the writer runs the same code on its own passages to choose the probe
// depth it writes into the manifest (scripts/sharded/calibrate.ts), so the two cannot drift.
import { int8Codec } from '../../vector/row-store';

/** The top centroids' indices, nearest the (unit) query first: `count` int8 rows of `dim`. */
export function rankTops(q: Float32Array, centroids: Uint8Array, count: number, dim: number): number[] {
  const rowBytes = int8Codec.rowBytes(dim);
  const scores = new Float32Array(count);
  for (let t = 0; t < count; t++) scores[t] = int8Codec.dot(q, centroids.subarray(t * rowBytes, (t + 1) * rowBytes));
  return Array.from({ length: count }, (_, t) => t).sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/** Code `i` of `codes` (`cb` bytes each) scored with an `asymmetricTable`: q · (spread ⊙ signs), up to the centre's share. */
export function asymmetricScore(table: Float32Array, codes: Uint8Array, i: number, cb: number): number {
  let s = 0;
  for (let b = 0, t = 0, o = i * cb; b < cb; b++, t += 256) s += table[t + codes[o + b]!]!;
  return s;
}

/**
 * How deep a question reads: tops whose sub-centroid blocks it fetches, lists it probes, and
 * candidates whose int8 rows it fetches and scores exactly. A corpus's writer measures these on
 * its own passages and writes them in the manifest (`probe`); the reader uses them unless a
 * question says otherwise.
 */
export interface ProbeDepth {
  ntop: number;
  nprobe: number;
  rescore: number;
}

/** What the writer measured for the depth it chose (manifest `probe`). */
export interface ProbeCalibration extends ProbeDepth {
  /** Recall@10 the depth reached, against exact search, for `queries` of the corpus's own passages. */
  recall: number;
  /** Its one-sided 95 % lower confidence bound over those questions: what reached `target`. */
  lower: number;
  /** The recall it aimed for. */
  target: number;
  queries: number;
}
