// RaBitQ codes (Gao and Long, SIGMOD 2024; B bits a dimension as in extended RaBitQ, Gao et al.,
// arXiv 2409.09913): the compact index in a tab and the sharded corpus rank candidates with them.
//
// A vector v is coded by its residual r = v − c (c: the corpus's mean), turned by a fixed random
// rotation P, so that every coordinate of P r carries about the same share of it; each coordinate
// is then quantised to B bits (its sign when B = 1), and one float per vector, the factor
// f = |r|² / ⟨y, P r⟩ (y: the code's grid point), makes f · ⟨y, P q⟩ an unbiased estimate of
// ⟨r, q⟩. The question is never quantised to a sign: it is rotated and kept as floats (or 4 bits,
// for a popcount scan), which is what sign-against-sign Hamming distances lose. On real
// all-MiniLM-L6-v2 vectors, which crowd together, the order this gives is much closer to the
// exact one (docs/benchmarks-real.md).
//
// A B-bit code is stored as B bit planes, most significant first, each `planeBytes(dim)` long
// (the dimension rounded up to 128 bits, as the SIMD kernels want); the first plane is the
// signs, so it is also a 1-bit code (with its own factor, `signFactor`).

import { mulberry32Words } from '../core/mulberry32';

/** Rounds of sign flips and fast Hadamard transforms in the rotation (as RaBitQ's FhtKac rotator). */
const ROUNDS = 4;

/** Bytes of one bit plane: one bit a dimension, rounded up to 16 bytes. */
export const planeBytes = (dim: number) => Math.ceil(dim / 128) * 16;

/** Code bytes of a `bits`-bit code. */
export const codeBytesOf = (dim: number, bits: number) => bits * planeBytes(dim);

/** In-place unnormalised Walsh–Hadamard transform of x[from .. from + h), h a power of two. */
function hadamard(x: Float64Array, from: number, h: number): void {
  for (let len = 1; len < h; len <<= 1)
    for (let i = from; i < from + h; i += len << 1)
      for (let j = i; j < i + len; j++) {
        const a = x[j]!,
          b = x[j + len]!;
        x[j] = a + b;
        x[j + len] = a - b;
      }
}

/**
 * A fixed random orthogonal map of R^dim: ROUNDS times, random sign flips then a Hadamard
 * transform of the first (even rounds) or last (odd rounds) 2^⌊log2 dim⌋ coordinates, and
 * where dim is no power of two a butterfly between the two halves so every coordinate mixes.
 * Every step is orthogonal and uses only sign flips, sums and one exact scale, so the page and
 * the writer build the same map from the same seed, and it costs O(dim log dim) a vector
 * (a dense one would cost dim², 147,000 multiply-adds at 384-d).
 */
export class Rotation {
  private readonly flips: Uint8Array[];
  private readonly h: number;
  private readonly scratch: Float64Array;

  constructor(
    readonly dim: number,
    readonly seed: number,
  ) {
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`rotation dimension must be a positive integer, got ${dim}`);
    this.h = 2 ** Math.floor(Math.log2(dim));
    // The writer and every reader build the same rotation: one seeded generator for all.
    const next = mulberry32Words(seed);
    this.flips = Array.from({ length: ROUNDS }, () => {
      const f = new Uint8Array(dim);
      for (let j = 0; j < dim; j += 32) {
        const word = next();
        for (let b = 0; b < 32 && j + b < dim; b++) f[j + b] = (word >>> b) & 1;
      }
      return f;
    });
    this.scratch = new Float64Array(dim);
  }

  /** P x into `out` (dim long; the rest of `out` is left alone). */
  apply(x: ArrayLike<number>, out: Float32Array | Float64Array): void {
    const { dim, h } = this;
    const s = this.scratch;
    for (let j = 0; j < dim; j++) s[j] = x[j]!;
    const scale = 1 / Math.sqrt(h);
    const half = dim >> 1;
    for (let round = 0; round < ROUNDS; round++) {
      const f = this.flips[round]!;
      for (let j = 0; j < dim; j++) if (f[j]) s[j] = -s[j]!;
      const from = round % 2 === 0 ? 0 : dim - h;
      hadamard(s, from, h);
      for (let j = from; j < from + h; j++) s[j]! *= scale;
      if (h !== dim)
        for (let j = 0; j < half; j++) {
          const a = s[j]!,
            b = s[j + half]!;
          s[j] = (a + b) * Math.SQRT1_2;
          s[j + half] = (a - b) * Math.SQRT1_2;
        }
    }
    for (let j = 0; j < dim; j++) out[j] = s[j]!;
  }
}

/** What a corpus's codes are taken against: its mean and its rotation. */
export interface CodeSpace {
  dim: number;
  centre: Float32Array;
  rotation: Rotation;
}

export function codeSpace(dim: number, centre: Float32Array, seed: number): CodeSpace {
  return { dim, centre, rotation: new Rotation(dim, seed) };
}

/** Scale factors tried for a multi-bit code's grid, as multiples of (levels / largest coordinate). */
const GRID_STEPS = 48;

/**
 * Codes `v` into `out` from `at`: `bits` planes (most significant first) of P(v − centre), and
 * returns the factors that turn ⟨code, P q⟩ into an estimate of ⟨v − centre, q⟩: `factor` for
 * the whole code, `signFactor` for its first plane alone (a 1-bit code). The grid of a multi-bit
 * code is scaled to bring it as near P(v − centre) in angle as a search of GRID_STEPS scales finds.
 */
export function encodeCode(
  space: CodeSpace,
  v: ArrayLike<number>,
  bits: number,
  out: Uint8Array,
  at = 0,
  scratch: Float64Array = new Float64Array(space.dim),
): { factor: number; signFactor: number } {
  const { dim, centre } = space;
  const pb = planeBytes(dim);
  const r = new Float64Array(dim);
  let norm2 = 0;
  for (let j = 0; j < dim; j++) {
    r[j] = v[j]! - centre[j]!;
    norm2 += r[j]! * r[j]!;
  }
  const o = scratch;
  space.rotation.apply(r, o);
  out.fill(0, at, at + bits * pb);
  let abs = 0,
    max = 0;
  for (let j = 0; j < dim; j++) {
    const a = Math.abs(o[j]!);
    abs += a;
    if (a > max) max = a;
  }
  // 1 bit: y = ±1/2, so ⟨y, o⟩ = Σ|o| / 2.
  const signFactor = abs > 0 ? norm2 / (abs / 2) : 0;
  const top = (1 << (bits - 1)) - 1; // the highest level of |y| − 1/2
  let bestT = 0;
  if (bits > 1 && max > 0) {
    let best = -1;
    for (let s = 0; s < GRID_STEPS; s++) {
      const t = ((top + 1) / max) * (0.5 + (2 * s) / GRID_STEPS);
      let dot = 0,
        len = 0;
      for (let j = 0; j < dim; j++) {
        const a = Math.abs(o[j]!);
        const y = Math.min(top, Math.floor(t * a)) + 0.5;
        dot += y * a;
        len += y * y;
      }
      const cos = dot / Math.sqrt(len);
      if (cos > best) {
        best = cos;
        bestT = t;
      }
    }
  }
  const half = 1 << (bits - 1);
  let dot = 0;
  for (let j = 0; j < dim; j++) {
    const a = Math.abs(o[j]!);
    const level = bits > 1 ? Math.min(top, Math.floor(bestT * a)) : 0;
    const u = o[j]! > 0 ? half + level : half - 1 - level;
    dot += (level + 0.5) * a;
    for (let p = 0; p < bits; p++) if ((u >> (bits - 1 - p)) & 1) out[at + p * pb + (j >> 3)]! |= 1 << (j & 7);
  }
  const factor = bits === 1 ? signFactor : dot > 0 ? norm2 / dot : 0;
  return { factor, signFactor };
}

/** A question made ready to score codes: rotated, with byte tables of its coordinates. */
export interface CodeQuery {
  /** P q, zero past dim up to the plane's bits. */
  rotated: Float32Array;
  /** Σ (P q)_j. */
  sum: number;
  /** ⟨centre, q⟩: added to every estimate, so estimates are of ⟨v, q⟩ itself. */
  centreDot: number;
  /** Entry `b * 256 + v`: the sum of (P q)_j over the set bits j of byte value v at byte b of a plane. */
  tables: Float32Array;
}

export function prepareQuery(space: CodeSpace, q: ArrayLike<number>): CodeQuery {
  const { dim, centre } = space;
  const pb = planeBytes(dim);
  const rotated = new Float32Array(pb * 8);
  space.rotation.apply(q, rotated);
  let sum = 0,
    centreDot = 0;
  for (let j = 0; j < dim; j++) {
    sum += rotated[j]!;
    centreDot += centre[j]! * q[j]!;
  }
  const tables = new Float32Array(pb * 256);
  for (let b = 0; b < pb; b++) {
    const t = b * 256;
    // Each entry is the one without its lowest set bit plus that bit's coordinate.
    for (let v = 1; v < 256; v++) {
      const low = v & -v;
      tables[t + v] = tables[t + (v ^ low)]! + rotated[b * 8 + 31 - Math.clz32(low)]!;
    }
  }
  return { rotated, sum, centreDot, tables };
}

/** ⟨u, P q⟩ of a `bits`-bit code at `codes[at ..]` (u: the code's levels, 0 .. 2^bits − 1). */
export function codeDot(query: CodeQuery, codes: Uint8Array, at: number, bits: number, pb: number): number {
  const { tables } = query;
  let s = 0;
  for (let p = 0; p < bits; p++) {
    let plane = 0;
    for (let b = 0, o = at + p * pb, t = 0; b < pb; b++, t += 256) plane += tables[t + codes[o + b]!]!;
    s += plane * (1 << (bits - 1 - p));
  }
  return s;
}

/** The estimate of ⟨v, q⟩ from v's `bits`-bit code and its factor. */
export function estimate(
  query: CodeQuery,
  codes: Uint8Array,
  at: number,
  bits: number,
  factor: number,
  pb: number,
): number {
  const dot = codeDot(query, codes, at, bits, pb);
  return query.centreDot + factor * (dot - (((1 << bits) - 1) / 2) * query.sum);
}

/**
 * The seed of the rotation the compact index uses, and the sharded writer unless told otherwise
 * (a corpus names its own in its manifest, so another seed stays readable).
 */
export const ROTATION_SEED = 0x52614269;

/** The mean of `n` rows: the centre codes are taken against. */
export function meanOf(n: number, row: (r: number) => ArrayLike<number>, dim: number): Float32Array {
  const sum = new Float64Array(dim);
  for (let r = 0; r < n; r++) {
    const v = row(r);
    for (let j = 0; j < dim; j++) sum[j]! += v[j]!;
  }
  return Float32Array.from(sum, (x) => x / Math.max(1, n));
}
