// Exact search over one contiguous Float32Array of unit vectors: a dot product
// per row. At 10k × 384 this is a few MB scanned per query, so the scan is the
// whole cost; see bench/index.bench.ts.
import { decodeVectors, encodeVectors, normalise, TopK, type VectorHit, type VectorIndex } from './vector-index';

/** Where the rows live and how a query is scored against them. */
export interface DotKernel {
  /** Rows, row-major; valid up to the capacity last reserved. */
  readonly data: Float32Array;
  /** Scratch for the query (dim floats). */
  readonly query: Float32Array;
  /** Scratch for one score per row. */
  readonly scores: Float32Array;
  /** Grows storage to at least `capacity` rows, keeping existing rows. */
  reserve(capacity: number): void;
  /** scores[r] = data[r] · query for r < count. */
  score(count: number): void;
}

export function jsKernel(dim: number): DotKernel {
  const k = {
    data: new Float32Array(0),
    query: new Float32Array(dim),
    scores: new Float32Array(0),
    reserve(capacity: number) {
      if (capacity * dim <= k.data.length) return;
      const data = new Float32Array(capacity * dim);
      data.set(k.data);
      k.data = data;
      k.scores = new Float32Array(capacity);
    },
    score(count: number) {
      const { data, query, scores } = k;
      const tail = dim - (dim % 4);
      for (let r = 0, o = 0; r < count; r++, o += dim) {
        // Four accumulators break the add dependency chain (about 1.7× faster in V8).
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        let j = 0;
        for (; j < tail; j += 4) {
          s0 += data[o + j]! * query[j]!;
          s1 += data[o + j + 1]! * query[j + 1]!;
          s2 += data[o + j + 2]! * query[j + 2]!;
          s3 += data[o + j + 3]! * query[j + 3]!;
        }
        for (; j < dim; j++) s0 += data[o + j]! * query[j]!;
        scores[r] = s0 + s1 + s2 + s3;
      }
    },
  };
  return k;
}

export class FlatIndex implements VectorIndex {
  readonly kind = 'flat' as const;
  private ids: string[] = [];
  private rows = new Map<string, number>();
  private readonly kernel: DotKernel;

  constructor(readonly dim: number, kernel?: DotKernel) {
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`index dimension must be a positive integer, got ${dim}`);
    this.kernel = kernel ?? jsKernel(dim);
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
    // Normalise everything first so a bad vector leaves the index untouched.
    const unit = vectors.map((v) => normalise(v, this.dim));
    const fresh = new Set(ids.filter((id) => !this.rows.has(id))).size;
    const need = this.ids.length + fresh;
    if (need * this.dim > this.kernel.data.length) this.kernel.reserve(Math.max(need, this.ids.length * 2, 64));
    ids.forEach((id, i) => {
      let r = this.rows.get(id);
      if (r === undefined) {
        r = this.ids.length;
        this.ids.push(id);
        this.rows.set(id, r);
      }
      this.kernel.data.set(unit[i]!, r * this.dim);
    });
  }

  remove(ids: readonly string[]): number {
    let removed = 0;
    const { data } = this.kernel;
    for (const id of ids) {
      const r = this.rows.get(id);
      if (r === undefined) continue;
      // Move the last row into the hole so rows stay contiguous.
      const last = this.ids.length - 1;
      const lastId = this.ids[last]!;
      if (r !== last) {
        data.copyWithin(r * this.dim, last * this.dim, (last + 1) * this.dim);
        this.ids[r] = lastId;
        this.rows.set(lastId, r);
      }
      this.ids.pop();
      this.rows.delete(id);
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

  /** The row of one id (a copy), for scoring hits an approximate index returns. */
  vector(id: string): Float32Array | undefined {
    const r = this.rows.get(id);
    return r === undefined ? undefined : this.kernel.data.slice(r * this.dim, (r + 1) * this.dim);
  }

  serialize(): Uint8Array {
    return encodeVectors({ dim: this.dim, ids: this.ids, data: this.kernel.data.subarray(0, this.ids.length * this.dim) });
  }
}
