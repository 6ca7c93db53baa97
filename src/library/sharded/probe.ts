// How a question finds its candidates in a sharded corpus: the nearest top centroids (int8,
// from the start-up block), then the best sub-centroids of those tops' blocks and the best
// passages of the probed lists, both by their codes: RaBitQ estimates (format 6,
// src/vector/rabitq.ts) or sign codes' asymmetric score (formats 4–5). The reader runs it on
// fetched blocks; the writer runs the same code on its own passages to choose the probe depth it
// writes into the manifest (scripts/sharded/calibrate.ts), so the two cannot drift.
import { type CodeSpace, codeSpace, estimate, planeBytes, prepareQuery } from '../../vector/rabitq';
import { int8Codec } from '../../vector/row-store';
import { asymmetricTable } from '../../vector/sign-codes';
import { codeBits, type CodeShape } from './format/codes';

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

/** What a corpus's codes are scored against: the shapes of its entries, its centre, and its spread (sign codes) or rotation (RaBitQ). */
export interface CodeBasis {
  dim: number;
  shapes: { list: CodeShape; sub: CodeShape };
  /** Sign codes' spread; null for RaBitQ codes. */
  spread: Float32Array | null;
  /** RaBitQ codes' space (centre and rotation); null for sign codes. */
  space: CodeSpace | null;
}

export function codeBasis(
  dim: number,
  shapes: { list: CodeShape; sub: CodeShape },
  centre: Float32Array,
  spread: Float32Array | null,
  seed: number | null,
): CodeBasis {
  if (shapes.list.factors) {
    if (seed === null) throw new Error('RaBitQ codes need their rotation seed');
    return { dim, shapes, spread: null, space: codeSpace(dim, centre, seed) };
  }
  if (!spread) throw new Error('sign codes need their spread');
  return { dim, shapes, spread, space: null };
}

/** Entry `i` of a block's codes (and factors), scored for one question: higher is nearer. */
export type CodeScore = (codes: Uint8Array, factors: Float32Array | null, i: number) => number;

/** One question's scores for a corpus's list entries and sub-centroids. */
export function scorersFor(q: Float32Array, basis: CodeBasis): { list: CodeScore; sub: CodeScore } {
  const { dim, shapes } = basis;
  if (basis.space) {
    const pq = prepareQuery(basis.space, q);
    const pb = planeBytes(dim);
    const of =
      (shape: CodeShape): CodeScore =>
      (codes, factors, i) =>
        estimate(pq, codes, i * shape.bytes, shape.bits, factors![i]!, pb);
    return { list: of(shapes.list), sub: of(shapes.sub) };
  }
  const bits = codeBits(dim);
  const table = asymmetricTable(q, basis.spread!, dim, bits);
  const score: CodeScore = (codes, _f, i) => asymmetricScore(table, codes, i, bits / 8);
  return { list: score, sub: score };
}
