// The compact index's rows as 1-bit RaBitQ codes (rabitq.ts) in memory: each row's code in the
// fast-scan kernel's blocks, its factor and the count of its set bits beside it, and the two
// passes that rank rows by them:
//   scan    every row, the question quantised to 4 bits a dimension (rabitq-kernel.ts);
//   refine  a few thousand rows, the question in floats (a table per 4 dimensions).
// Saved rows (compact-journal.ts) are the code's words and then its factor's bits.
import { codeDot, type CodeQuery, type CodeSpace, encodeCode, planeBytes } from './rabitq';
import { fastScanKernel, type FastScanKernel } from './rabitq-kernel';
import { topIndices } from './top-rows';

/** Bins of the scan's histogram of estimates over [−1, 1]: 0.00024 of cosine a bin. */
const HISTOGRAM_BINS = 8192;

const popcount8 = (x: number) => {
  x -= (x >> 1) & 0x55;
  x = (x & 0x33) + ((x >> 2) & 0x33);
  return (x + (x >> 4)) & 0x0f;
};

export class CodeRows {
  readonly kernel: FastScanKernel;
  /** Per row: the factor that scales ⟨signs, P q⟩ into an estimate (rabitq.ts `signFactor`). */
  private factors = new Float32Array(0);
  /** Per row: set bits of its code (⟨b, u⟩ needs Σ b for the quantised question's offset). */
  private ones = new Uint16Array(0);
  private capacity = 0;
  private readonly pb: number;
  private readonly code: Uint8Array;
  private readonly scratch: Float64Array;
  private bins = new Uint16Array(0);
  private readonly hist = new Uint32Array(HISTOGRAM_BINS);

  constructor(
    readonly dim: number,
    kernel: (bits: number) => FastScanKernel = fastScanKernel,
  ) {
    this.pb = planeBytes(dim);
    this.kernel = kernel(this.pb * 8);
    this.code = new Uint8Array(this.pb);
    this.scratch = new Float64Array(dim);
  }

  /** 32-bit words of a saved row: the code's, then the factor's. */
  get rowWords(): number {
    return this.pb / 4 + 1;
  }

  reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    this.kernel.reserve(capacity);
    const f = new Float32Array(capacity);
    f.set(this.factors);
    this.factors = f;
    const o = new Uint16Array(capacity);
    o.set(this.ones);
    this.ones = o;
    this.capacity = capacity;
  }

  private put(r: number, code: Uint8Array, factor: number): void {
    this.kernel.setRow(r, code);
    this.factors[r] = factor;
    let ones = 0;
    for (let b = 0; b < code.length; b++) ones += popcount8(code[b]!);
    this.ones[r] = ones;
  }

  /** Codes unit vector `unit` as row `r`. */
  encode(space: CodeSpace, unit: ArrayLike<number>, r: number): void {
    const { signFactor } = encodeCode(space, unit, 1, this.code, 0, this.scratch);
    this.put(r, this.code, signFactor);
  }

  move(from: number, to: number): void {
    this.kernel.moveRow(from, to);
    this.factors[to] = this.factors[from]!;
    this.ones[to] = this.ones[from]!;
  }

  /** Rows `low .. high` as saved: each its code words and its factor's bits. */
  saved(low: number, high: number): Uint32Array {
    const rw = this.rowWords;
    const out = new Uint32Array((high - low + 1) * rw);
    const bytes = new Uint8Array(out.buffer);
    const bits = new Uint32Array(this.factors.buffer, this.factors.byteOffset, this.factors.length);
    for (let r = low; r <= high; r++) {
      this.kernel.getRow(r, this.code);
      bytes.set(this.code, (r - low) * rw * 4);
      out[(r - low) * rw + rw - 1] = bits[r]!;
    }
    return out;
  }

  /** Takes back `count` saved rows. */
  restore(saved: Uint32Array, count: number): void {
    this.reserve(Math.max(count, 64));
    const rw = this.rowWords;
    const bytes = new Uint8Array(saved.buffer, saved.byteOffset, saved.byteLength);
    const f = new Float32Array(1);
    const fbits = new Uint32Array(f.buffer);
    for (let r = 0; r < count; r++) {
      fbits[0] = saved[r * rw + rw - 1]!;
      this.put(r, bytes.subarray(r * rw * 4, r * rw * 4 + this.pb), f[0]!);
    }
  }

  /**
   * The `m` best of the first `count` rows by the estimate with the question quantised to 4 bits a
   * dimension: u_j = round((q'_j − lo) / Δ), so ⟨b, q'⟩ ≈ lo Σb + Δ ⟨b, u⟩, the kernel's sums.
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
    this.kernel.setQuery(u, dim);
    this.kernel.score(count);
    return this.bestEstimates(query.centreDot, lo, delta, sum / 2, count, m);
  }

  /**
   * The `m` rows of highest estimate, in no order, by a histogram of the estimates (as cosines,
   * HISTOGRAM_BINS bins over [−1, 1]): two passes and no sort of the rows, which a heap or a sort
   * of 100,000 floats would cost several times over. Rows in the bin at the cut are taken in row
   * order; the float pass after this one ranks them.
   */
  private bestEstimates(centreDot: number, lo: number, delta: number, half: number, count: number, m: number) {
    if (this.bins.length < count) this.bins = new Uint16Array(this.capacity);
    const { dots } = this.kernel;
    const { bins, factors, ones, hist } = this;
    hist.fill(0);
    const scale = HISTOGRAM_BINS / 2;
    for (let r = 0; r < count; r++) {
      const e = centreDot + factors[r]! * (lo * ones[r]! + delta * dots[r]! - half);
      const b = e <= -1 ? 0 : e >= 1 ? HISTOGRAM_BINS - 1 : ((e + 1) * scale) | 0;
      bins[r] = b;
      hist[b]!++;
    }
    let cut = HISTOGRAM_BINS - 1;
    for (let seen = 0; cut > 0; cut--) {
      seen += hist[cut]!;
      if (seen >= m) break;
    }
    let above = 0;
    for (let b = cut + 1; b < HISTOGRAM_BINS; b++) above += hist[b]!;
    let atCut = m - above;
    const out = new Uint32Array(Math.min(m, count));
    let o = 0;
    for (let r = 0; r < count && o < out.length; r++) {
      const b = bins[r]!;
      if (b > cut || (b === cut && atCut-- > 0)) out[o++] = r;
    }
    return out;
  }

  /** The `m` best of `rows` by the estimate with the question in floats (a table per code byte). */
  refine(query: CodeQuery, rows: ArrayLike<number>, m: number): Uint32Array {
    const est = new Float32Array(rows.length);
    const half = query.sum / 2;
    const { code, pb } = this;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      this.kernel.getRow(r, code);
      est[i] = this.factors[r]! * (codeDot(query, code, 0, 1, pb) - half);
    }
    return topIndices(est, m, rows.length, rows);
  }

  memoryBytes(): number {
    return this.kernel.bytes + this.factors.byteLength + this.ones.byteLength + this.bins.byteLength;
  }
}
