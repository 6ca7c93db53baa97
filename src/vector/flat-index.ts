// Exact search over one contiguous Float32Array of unit vectors: a dot product
// per row. At 10k × 384 this is a few MB scanned per query, so the scan is the
// whole cost, done by a WebAssembly SIMD kernel where available; see bench/index.bench.ts.
import type { DotKernel } from './dot-kernel';
import { simdKernel } from './simd-kernel';
import { removeRow, takeRow } from './row-ids';
import {
  decodeVectors,
  encodeVectors,
  normalise,
  TopK,
  vectorNorm,
  type VectorHit,
  type VectorIndex,
} from './vector-index';

export class FlatIndex implements VectorIndex {
  readonly kind = 'flat' as const;
  private ids: string[] = [];
  private rows = new Map<string, number>();
  private readonly kernel: DotKernel;

  constructor(
    readonly dim: number,
    kernel?: DotKernel,
  ) {
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`index dimension must be a positive integer, got ${dim}`);
    this.kernel = kernel ?? simdKernel(dim);
  }

  static deserialize(bytes: Uint8Array, kernel?: (dim: number) => DotKernel): FlatIndex {
    const { dim, ids, data } = decodeVectors(bytes);
    const index = new FlatIndex(dim, kernel?.(dim));
    index.kernel.reserve(ids.length);
    index.kernel.data.set(data);
    index.ids = ids.slice();
    ids.forEach((id, r) => index.rows.set(id, r));
    if (index.rows.size !== ids.length) throw new Error('vector index file has duplicate ids');
    return index;
  }

  size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    if (ids.length !== vectors.length) throw new Error(`${ids.length} ids but ${vectors.length} vectors`);
    // Every vector is checked before any is written, so a bad one leaves the index untouched;
    // rows are scaled straight into storage, with no per-vector copies.
    const norms = vectors.map((v) => vectorNorm(v, this.dim));
    const fresh = new Set(ids.filter((id) => !this.rows.has(id))).size;
    const need = this.ids.length + fresh;
    if (need * this.dim > this.kernel.data.length) this.kernel.reserve(Math.max(need, this.ids.length * 2, 64));
    const { data } = this.kernel;
    ids.forEach((id, i) => {
      const r = takeRow(this.ids, this.rows, id);
      const v = vectors[i]!;
      const inv = 1 / norms[i]!;
      const o = r * this.dim;
      for (let j = 0; j < this.dim; j++) data[o + j] = v[j]! * inv;
    });
  }

  remove(ids: readonly string[]): number {
    let removed = 0;
    const { data } = this.kernel;
    for (const id of ids) {
      if (
        removeRow(this.ids, this.rows, id, (from, to) =>
          data.copyWithin(to * this.dim, from * this.dim, (from + 1) * this.dim),
        )
      )
        removed++;
    }
    return removed;
  }

  clear(): void {
    this.ids = [];
    this.rows.clear();
  }

  search(query: Float32Array, k: number): VectorHit[] {
    const n = this.ids.length;
    if (n === 0 || k <= 0) return [];
    this.kernel.query.set(normalise(query, this.dim));
    this.kernel.score(n);
    const top = new TopK(Math.min(k, n));
    const { scores } = this.kernel;
    for (let r = 0; r < n; r++) {
      const s = scores[r]!;
      if (s > top.worst()) top.push(this.ids[r]!, s);
    }
    return top.hits();
  }

  cosine(query: Float32Array, id: string): number | undefined {
    const r = this.rows.get(id);
    if (r === undefined) return undefined;
    // Read in place: no copy of the row.
    const data = this.kernel.data;
    const at = r * this.dim;
    let s = 0;
    for (let j = 0; j < this.dim; j++) s += data[at + j]! * query[j]!;
    return s;
  }

  /** Ids in row order (a growing library moves its rows into the compact index from here). */
  idList(): readonly string[] {
    return this.ids;
  }

  /** The row of one id (a copy), for scoring hits an approximate index returns. */
  vector(id: string): Float32Array | undefined {
    const r = this.rows.get(id);
    return r === undefined ? undefined : this.kernel.data.slice(r * this.dim, (r + 1) * this.dim);
  }

  serialize(): Uint8Array {
    return encodeVectors({
      dim: this.dim,
      ids: this.ids,
      data: this.kernel.data.subarray(0, this.ids.length * this.dim),
    });
  }
}
