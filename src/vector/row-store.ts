// Where the compact index keeps its precise rows: the few candidates that survive
// the binary pass are rescored from here. A store is synchronous on purpose: the
// index runs in a worker, where an OPFS sync access handle (or, in Node, a file
// read at an offset) answers a 388-byte read in microseconds, so `search` keeps
// the VectorIndex port's synchronous signature.

export interface RowStore {
  /** Bytes per row, fixed at creation. */
  readonly rowBytes: number;
  /** Writes one row, growing the store as needed. */
  write(row: number, bytes: Uint8Array): void;
  /** Writes consecutive rows from `first` (bytes.length a multiple of rowBytes); optional, one write instead of many. */
  writeRows?(first: number, bytes: Uint8Array): void;
  /** Reads one row into `out` (rowBytes long). */
  read(row: number, out: Uint8Array): void;
  /** Drops rows from `rows` on. */
  truncate(rows: number): void;
  /** Bytes this store holds in the tab's memory (0 for a disk-backed store). */
  memoryBytes(): number;
  /** Whole rows held (a re-opened compact index checks its rows are all there). */
  rowCount?(): number;
}

/** Rows kept in one growable buffer: for tests and for libraries small enough to hold them. */
export class MemoryRowStore implements RowStore {
  private buf = new Uint8Array(0);
  private rows = 0;
  constructor(readonly rowBytes: number) {}
  write(row: number, bytes: Uint8Array): void {
    const need = (row + 1) * this.rowBytes;
    if (need > this.buf.length) {
      const next = new Uint8Array(Math.max(need, this.buf.length * 2, this.rowBytes * 64));
      next.set(this.buf);
      this.buf = next;
    }
    this.buf.set(bytes.subarray(0, this.rowBytes), row * this.rowBytes);
    this.rows = Math.max(this.rows, row + 1);
  }
  writeRows(first: number, bytes: Uint8Array): void {
    const count = bytes.length / this.rowBytes;
    const need = (first + count) * this.rowBytes;
    if (need > this.buf.length) {
      const next = new Uint8Array(Math.max(need, this.buf.length * 2, this.rowBytes * 64));
      next.set(this.buf);
      this.buf = next;
    }
    this.buf.set(bytes, first * this.rowBytes);
    this.rows = Math.max(this.rows, first + count);
  }
  read(row: number, out: Uint8Array): void {
    if (row >= this.rows) throw new Error(`row ${row} is past the end of the store (${this.rows} rows)`);
    out.set(this.buf.subarray(row * this.rowBytes, (row + 1) * this.rowBytes));
  }
  truncate(rows: number): void {
    this.rows = Math.min(this.rows, rows);
  }
  memoryBytes(): number {
    return this.buf.byteLength;
  }
  rowCount(): number {
    return this.rows;
  }
}

/**
 * One unit vector as int8 with a float32 scale: dim + 4 bytes, a quarter of float32.
 * The rescoring error is below the gap between neighbours that matters for top-10
 * (measured in bench/scale.bench.ts).
 */
export const int8Codec = {
  rowBytes: (dim: number) => dim + 4,
  encode(v: Float32Array, out: Uint8Array): void {
    const dim = v.length;
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(v[j]!));
    const scale = max > 0 ? max / 127 : 1;
    const inv = 1 / scale;
    const q = new Int8Array(out.buffer, out.byteOffset, dim);
    for (let j = 0; j < dim; j++) q[j] = Math.round(v[j]! * inv);
    new DataView(out.buffer, out.byteOffset + dim, 4).setFloat32(0, scale, true);
  },
  /** dot(query, decoded row) without materialising the row. */
  dot(query: Float32Array, row: Uint8Array): number {
    const dim = query.length;
    const q = new Int8Array(row.buffer, row.byteOffset, dim);
    let s0 = 0,
      s1 = 0;
    let j = 0;
    for (; j + 1 < dim; j += 2) {
      s0 += q[j]! * query[j]!;
      s1 += q[j + 1]! * query[j + 1]!;
    }
    if (j < dim) s0 += q[j]! * query[j]!;
    return (s0 + s1) * new DataView(row.buffer, row.byteOffset + dim, 4).getFloat32(0, true);
  },
  decode(row: Uint8Array, dim: number): Float32Array {
    const q = new Int8Array(row.buffer, row.byteOffset, dim);
    const scale = new DataView(row.buffer, row.byteOffset + dim, 4).getFloat32(0, true);
    return Float32Array.from(q, (x) => x * scale);
  },
};
