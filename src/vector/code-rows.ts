// The compact index's rows as 1-bit RaBitQ codes (rabitq.ts) in memory: one bit plane a row in the
// bit-sliced kernel's memory, its factor and the count of its set bits beside it, and the two
// passes that rank rows by them:
//   scan    every row, the question quantised to 4 bits a dimension (popcounts, rabitq-kernel.ts);
//   refine  a few thousand rows, the question in floats (a byte table per code byte).
// Saved rows (compact-journal.ts) are the code's words and then its factor's bits.
import { bitSlicedKernel, setQuery, type BitSlicedKernel } from './rabitq-kernel';
import { codeDot, type CodeQuery, type CodeSpace, encodeCode, planeBytes } from './rabitq';
import { topIndices } from './top-rows';

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export class CodeRows {
  readonly kernel: BitSlicedKernel;
  /** Per row: the factor that scales ⟨signs, P q⟩ into an estimate (rabitq.ts `signFactor`). */
  private factors = new Float32Array(0);
  /** Per row: set bits of its code (⟨b, u⟩ needs Σ b for the quantised question's offset). */
  private ones = new Uint16Array(0);
  private readonly pb: number;
  private readonly bytes: Uint8Array;
  private readonly scratch: Float64Array;
  private scores = new Float32Array(0);

  constructor(
    readonly dim: number,
    kernel = bitSlicedKernel,
  ) {
    this.pb = planeBytes(dim);
    this.kernel = kernel(this.pb * 8);
    this.bytes = new Uint8Array(this.pb);
    this.scratch = new Float64Array(dim);
  }

  /** 32-bit words of a saved row: the code's, then the factor's. */
  get rowWords(): number {
    return this.kernel.words + 1;
  }

  reserve(capacity: number): void {
    if (capacity * this.kernel.words <= this.kernel.codes.length) return;
    this.kernel.reserve(capacity);
    const f = new Float32Array(capacity);
    f.set(this.factors.subarray(0, Math.min(this.factors.length, capacity)));
    this.factors = f;
    const o = new Uint16Array(capacity);
    o.set(this.ones.subarray(0, Math.min(this.ones.length, capacity)));
    this.ones = o;
  }

  /** Codes unit vector `unit` as row `r`. */
  encode(space: CodeSpace, unit: ArrayLike<number>, r: number): void {
    const { signFactor } = encodeCode(space, unit, 1, this.bytes, 0, this.scratch);
    const { words, codes } = this.kernel;
    const view = new Uint32Array(this.bytes.buffer);
    let ones = 0;
    for (let w = 0; w < words; w++) {
      codes[r * words + w] = view[w]!;
      ones += popcount32(view[w]!);
    }
    this.factors[r] = signFactor;
    this.ones[r] = ones;
  }

  move(from: number, to: number): void {
    const { words, codes } = this.kernel;
    codes.copyWithin(to * words, from * words, (from + 1) * words);
    this.factors[to] = this.factors[from]!;
    this.ones[to] = this.ones[from]!;
  }

  /** Rows `low .. high` as saved: each its code words and its factor's bits. */
  saved(low: number, high: number): Uint32Array {
    const { words, codes } = this.kernel;
    const rw = words + 1;
    const out = new Uint32Array((high - low + 1) * rw);
    const bits = new Uint32Array(this.factors.buffer, this.factors.byteOffset, this.factors.length);
    for (let r = low; r <= high; r++) {
      out.set(codes.subarray(r * words, (r + 1) * words), (r - low) * rw);
      out[(r - low) * rw + words] = bits[r]!;
    }
    return out;
  }

  /** Takes back `count` saved rows. */
  restore(saved: Uint32Array, count: number): void {
    this.reserve(Math.max(count, 64));
    const { words, codes } = this.kernel;
    const rw = words + 1;
    const bits = new Uint32Array(this.factors.buffer, this.factors.byteOffset, this.factors.length);
    for (let r = 0; r < count; r++) {
      let ones = 0;
      for (let w = 0; w < words; w++) {
        const x = saved[r * rw + w]!;
        codes[r * words + w] = x;
        ones += popcount32(x);
      }
      bits[r] = saved[r * rw + words]!;
      this.ones[r] = ones;
    }
  }

  /**
   * The `m` best of the first `count` rows by the estimate with the question quantised to 4 bits a
   * dimension: u_j = round((q'_j − lo) / Δ), so ⟨b, q'⟩ ≈ lo Σb + Δ ⟨b, u⟩, the kernel's popcounts.
   */
  scan(query: CodeQuery, count: number, m: number): Uint32Array {
    const { dim } = this;
    const q = query.rotated;
    let lo = Infinity,
      hi = -Infinity;
    for (let j = 0; j < dim; j++) {
      lo = Math.min(lo, q[j]!);
      hi = Math.max(hi, q[j]!);
    }
    const delta = (hi - lo) / 15 || 1;
    const u = new Uint8Array(dim);
    let sum = 0;
    for (let j = 0; j < dim; j++) {
      u[j] = Math.round((q[j]! - lo) / delta);
      sum += lo + delta * u[j]!;
    }
    setQuery(this.kernel, u, dim);
    this.kernel.score(count);
    if (this.scores.length < count) this.scores = new Float32Array(this.kernel.dots.length);
    const { dots } = this.kernel;
    const { scores, factors, ones } = this;
    const half = sum / 2;
    for (let r = 0; r < count; r++) scores[r] = factors[r]! * (lo * ones[r]! + delta * dots[r]! - half);
    return topIndices(scores, m, count);
  }

  /** The `m` best of `rows` by the estimate with the question in floats. */
  refine(query: CodeQuery, rows: ArrayLike<number>, m: number): Uint32Array {
    const { words, codes } = this.kernel;
    const bytes = new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength);
    const est = new Float32Array(rows.length);
    const half = query.sum / 2;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      est[i] = this.factors[r]! * (codeDot(query, bytes, r * words * 4, 1, this.pb) - half);
    }
    return topIndices(est, m, rows.length, rows);
  }

  memoryBytes(): number {
    return (
      this.kernel.codes.byteLength + this.kernel.dots.byteLength + this.factors.byteLength * 2 + this.ones.byteLength
    );
  }
}
