// A million passages in a tab: one bit per dimension in memory, precise rows elsewhere.
//
// Three passes per query, each over far fewer rows than the one before:
//  1. Hamming distance between the query's sign bits and every row's bits (centred on
//     the library's mean), WebAssembly SIMD popcount over 48 bytes a row at 384-d;
//  2. the best `candidates` of those rescored asymmetrically: the float query against
//     each row's bits scaled by the per-dimension spread (a 1-bit reconstruction that
//     respects anisotropic embeddings), by byte lookup tables;
//  3. the best `rescore` of those read from the RowStore (int8, a quarter of float32;
//     on disk or OPFS for big libraries) and scored exactly against the int8 row.
// Memory held: bits + ids; the rows live in the store. Adding vectors appends codes
// and rows; the centre is learned once, from the first TRAIN_AT rows (those few are
// re-encoded then), and never again, so no add rebuilds anything.
// With a journal (compact-journal.ts) every change is written through to files, and
// `CompactIndex.reopen` comes back from them without the float vectors.
import { FileRowStore, type ByteFile } from './byte-file';
import { CompactJournal, rowHash, type CompactFiles, type LoadedCompact } from './compact-journal';
import { hammingKernel, type HammingKernel } from './hamming-kernel';
import { int8Codec, MemoryRowStore, type RowStore } from './row-store';
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

/**
 * Rows scored exactly after the 1-bit passes. Real MiniLM vectors crowd together (random pairs at
 * cosine 0.23–0.35, against about 0 for the synthetic ones), so the 1-bit order is rougher: with
 * 100, recall@10 was 0.887 at 100k real passages and 0.923 at 20k; with 400, 0.959 and 0.970, for
 * 0.6 ms more a question (docs/benchmarks-real.md). Synthetic vectors reach 0.993 either way.
 */
export const DEFAULT_RESCORE = 400;

export interface CompactOptions {
  /** Rows kept after the Hamming pass (default: 2000, or all when fewer). */
  candidates?: number;
  /** Rows read from the store and scored exactly (default DEFAULT_RESCORE). */
  rescore?: number;
  /** Where the int8 rows go (default: in memory). Must be empty. */
  store?: RowStore;
  /** Hamming kernel, for tests and the bench (default: WASM SIMD where available). */
  kernel?: (bits: number) => HammingKernel;
  /** Files every change is written through to (the store must then be a file too); emptied at creation. */
  files?: CompactFiles;
  /** What made the vectors (the embedding model), saved with the state: a re-open with another stamp is refused as stale. */
  stamp?: string;
}

/** Rows seen before the centre and spread are learned from them. */
export const TRAIN_AT = 1024;

function writeEach(store: RowStore, first: number, run: Uint8Array, count: number): void {
  for (let i = 0; i < count; i++) store.write(first + i, run.subarray(i * store.rowBytes, (i + 1) * store.rowBytes));
}

export class CompactIndex implements VectorIndex {
  readonly kind = 'compact' as const;
  private ids: string[] = [];
  private rows = new Map<string, number>();
  private readonly bits: number;
  private readonly kernel: HammingKernel;
  private readonly store: RowStore;
  private readonly rowBuf: Uint8Array;
  private centre: Float32Array;
  private spread: Float32Array;
  private trained = false;
  private readonly candidates: number;
  private readonly rescore: number;
  private journal: CompactJournal | null = null;
  /** Sum of rowHash over the rows, kept while a journal is: the saved state's checksum. */
  private sum = 0;

  constructor(
    readonly dim: number,
    opts: CompactOptions = {},
  ) {
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`index dimension must be a positive integer, got ${dim}`);
    // Padding bits are zero in rows and query alike, so they never count.
    this.bits = Math.ceil(dim / 128) * 128;
    this.kernel = (opts.kernel ?? hammingKernel)(this.bits);
    this.store = opts.store ?? new MemoryRowStore(int8Codec.rowBytes(dim));
    if (this.store.rowBytes !== int8Codec.rowBytes(dim))
      throw new Error(
        `row store holds ${this.store.rowBytes}-byte rows, a ${dim}-d int8 row needs ${int8Codec.rowBytes(dim)}`,
      );
    this.rowBuf = new Uint8Array(this.store.rowBytes);
    this.centre = new Float32Array(dim);
    this.spread = new Float32Array(dim).fill(1);
    this.candidates = opts.candidates ?? 2000;
    this.rescore = opts.rescore ?? DEFAULT_RESCORE;
    if (opts.files) {
      this.journal = new CompactJournal(opts.files, dim, this.kernel.words, opts.stamp ?? '');
      this.journal.reset();
      this.store.truncate(0);
      this.commit();
    }
  }

  /**
   * The index as saved in `files` (and `opts.store`'s rows), without any float vector: null when
   * nothing was saved, a CompactStateError when the state is stale or damaged.
   */
  static reopen(
    files: CompactFiles,
    rows: ByteFile,
    opts: Omit<CompactOptions, 'files' | 'store'> = {},
  ): CompactIndex | null {
    const loaded = CompactJournal.load(files, opts.stamp ?? '', (dim) =>
      Math.floor(rows.size() / int8Codec.rowBytes(dim)),
    );
    if (!loaded) return null;
    const { journal, state } = loaded;
    const index = new CompactIndex(state.dim, {
      ...opts,
      store: new FileRowStore(int8Codec.rowBytes(state.dim), rows),
    });
    index.restore(state);
    index.journal = journal;
    return index;
  }

  private restore(s: LoadedCompact): void {
    this.kernel.reserve(Math.max(s.count, 64));
    this.kernel.codes.set(s.codes);
    this.ids = s.ids;
    this.rows = s.rows;
    this.centre = s.centre;
    this.spread = s.spread;
    this.trained = s.trained;
    this.sum = s.sum;
    // Rows past the saved count were written by a change the head never recorded.
    this.store.truncate(s.count);
  }

  /** Ids in row order (the library reconciles them with its documents after a re-open). */
  idList(): readonly string[] {
    return this.ids;
  }

  /** Whether changes are written through to files. */
  get saved(): boolean {
    return this.journal !== null;
  }

  private hashOf(r: number): number {
    const { words } = this.kernel;
    return rowHash(this.ids[r]!, this.kernel.codes, r * words, words);
  }

  private commit(): void {
    this.journal?.commit(
      { trained: this.trained, centre: this.centre, spread: this.spread, count: this.ids.length, sum: this.sum },
      this.ids,
    );
  }

  static deserialize(bytes: Uint8Array, opts: CompactOptions = {}): CompactIndex {
    const { dim, ids, data } = decodeVectors(bytes);
    const index = new CompactIndex(dim, opts);
    if (new Set(ids).size !== ids.length) throw new Error('vector index file has duplicate ids');
    const rows = ids.map((_, i) => data.subarray(i * dim, (i + 1) * dim));
    index.add(ids, rows);
    return index;
  }

  size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Bytes this index holds in memory besides the ids: codes, scratch and an in-memory store. */
  memoryBytes(): number {
    return this.kernel.codes.byteLength + this.kernel.dist.byteLength + this.store.memoryBytes() + this.dim * 8;
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    if (ids.length !== vectors.length) throw new Error(`${ids.length} ids but ${vectors.length} vectors`);
    const norms = vectors.map((v) => vectorNorm(v, this.dim));
    if (this.journal) CompactJournal.check(ids);
    const fresh = new Set(ids.filter((id) => !this.rows.has(id))).size;
    const need = this.ids.length + fresh;
    if (need * this.kernel.words > this.kernel.codes.length)
      this.kernel.reserve(Math.max(need, this.ids.length * 2, 64));
    // Learned before this batch is encoded when it brings the library past TRAIN_AT rows, from the
    // rows already stored and the first of this batch: only those (< TRAIN_AT) are ever re-encoded.
    const before = this.ids.length;
    const journal = this.journal;
    // Rows about to be overwritten leave the checksum first.
    if (journal)
      for (const id of new Set(ids)) {
        const r = this.rows.get(id);
        if (r !== undefined) this.sum = (this.sum - this.hashOf(r)) >>> 0;
      }
    const wasTrained = this.trained;
    if (!this.trained && need >= TRAIN_AT)
      this.train(vectors.slice(0, TRAIN_AT).map((v, i) => v.map((x) => x / norms[i]!)));
    let low = Infinity,
      high = -1;
    const unit = new Float32Array(this.dim);
    // Appended rows go to the store in runs (one write per run, not per row).
    const { rowBytes } = this.store;
    const run = new Uint8Array(rowBytes * 1024);
    let runStart = -1,
      runLen = 0;
    const flush = () => {
      if (runLen)
        this.store.writeRows
          ? this.store.writeRows(runStart, run.subarray(0, runLen * rowBytes))
          : writeEach(this.store, runStart, run, runLen);
      runLen = 0;
    };
    ids.forEach((id, i) => {
      const r = takeRow(this.ids, this.rows, id);
      const v = vectors[i]!;
      const inv = 1 / norms[i]!;
      for (let j = 0; j < this.dim; j++) unit[j] = v[j]! * inv;
      if (runLen && (r !== runStart + runLen || runLen === 1024)) flush();
      if (!runLen) runStart = r;
      int8Codec.encode(unit, run.subarray(runLen * rowBytes, (runLen + 1) * rowBytes));
      runLen++;
      this.encodeBits(unit, r);
      low = Math.min(low, r);
      high = Math.max(high, r);
    });
    flush();
    if (journal) {
      const { words } = this.kernel;
      if (this.trained !== wasTrained) {
        // Training re-encoded the rows before this batch: they are written again, and summed afresh.
        low = 0;
        high = this.ids.length - 1;
        this.sum = 0;
        for (let r = 0; r < this.ids.length; r++) this.sum = (this.sum + this.hashOf(r)) >>> 0;
      } else {
        for (const id of new Set(ids)) this.sum = (this.sum + this.hashOf(this.rows.get(id)!)) >>> 0;
      }
      if (high >= low) journal.writeCodes(low, this.kernel.codes.subarray(low * words, (high + 1) * words));
      journal.added(this.ids.slice(before));
      this.commit();
    }
  }

  private encodeBits(unit: Float32Array, r: number): void {
    encodeSignBits(unit, this.centre, this.dim, this.kernel.codes, r * this.kernel.words, this.kernel.words);
  }

  /** Learns the centre (mean) and spread (mean absolute deviation) once, from the stored rows and `more`, and re-encodes the stored rows. */
  private train(more: Float32Array[]): void {
    const stored: Float32Array[] = [];
    for (let r = 0; r < this.ids.length; r++) {
      this.store.read(r, this.rowBuf);
      stored.push(int8Codec.decode(this.rowBuf, this.dim));
    }
    const rows = [...stored, ...more];
    learnCentreSpread(rows.length, (r) => rows[r]!, this.dim, this.centre, this.spread);
    stored.forEach((v, r) => this.encodeBits(v, r));
    this.trained = true;
  }

  remove(ids: readonly string[]): number {
    let removed = 0;
    const { words, codes } = this.kernel;
    const journal = this.journal;
    const move = (from: number, to: number) => {
      codes.copyWithin(to * words, from * words, (from + 1) * words);
      journal?.writeCodes(to, codes.subarray(to * words, (to + 1) * words));
      this.store.read(from, this.rowBuf);
      this.store.write(to, this.rowBuf);
    };
    const gone: string[] = [];
    for (const id of ids) {
      const r = this.rows.get(id);
      if (r === undefined) continue;
      if (journal) this.sum = (this.sum - this.hashOf(r)) >>> 0;
      removeRow(this.ids, this.rows, id, move);
      gone.push(id);
      removed++;
    }
    this.store.truncate(this.ids.length);
    if (journal && removed > 0) {
      journal.removed(gone);
      this.commit();
    }
    return removed;
  }

  clear(): void {
    this.ids = [];
    this.rows.clear();
    this.store.truncate(0);
    this.sum = 0;
    if (this.journal) {
      this.journal.reset();
      this.commit();
    }
  }

  search(query: Float32Array, k: number): VectorHit[] {
    const n = this.ids.length;
    if (n === 0 || k <= 0) return [];
    const q = normalise(query, this.dim);
    const rescore = Math.max(this.rescore, k);
    let pool: ArrayLike<number>;
    if (n <= rescore) {
      pool = Array.from({ length: n }, (_, r) => r);
    } else {
      const near =
        n <= this.candidates ? Array.from({ length: n }, (_, r) => r) : this.hammingNearest(q, this.candidates);
      pool = this.asymmetricBest(q, near, rescore);
    }
    const top = new TopK(Math.min(k, n));
    for (let i = 0; i < pool.length; i++) {
      const r = pool[i]!;
      this.store.read(r, this.rowBuf);
      const s = int8Codec.dot(q, this.rowBuf);
      if (s > top.worst()) top.push(this.ids[r]!, s);
    }
    return top.hits();
  }

  /** The `m` rows with the fewest differing bits, by a histogram of distances (no sort of n). */
  private hammingNearest(q: Float32Array, m: number): Uint32Array {
    const { query, dist } = this.kernel;
    const n = this.ids.length;
    query.fill(0);
    for (let j = 0; j < this.dim; j++) if (q[j]! > this.centre[j]!) query[j >>> 5]! |= 1 << (j & 31);
    this.kernel.score(n);
    const hist = new Uint32Array(this.bits + 1);
    for (let r = 0; r < n; r++) hist[dist[r]!]!++;
    let cut = 0;
    for (let seen = 0; cut <= this.bits; cut++) {
      seen += hist[cut]!;
      if (seen >= m) break;
    }
    const out = new Uint32Array(m);
    let below = 0;
    for (let d = 0; d < cut; d++) below += hist[d]!;
    let atCut = m - below;
    let o = 0;
    for (let r = 0; r < n && o < m; r++) {
      const d = dist[r]!;
      if (d < cut || (d === cut && atCut-- > 0)) out[o++] = r;
    }
    return out;
  }

  /** The best `m` of `rows` by q · (centre + spread ⊙ sign bits), one table lookup per code byte. */
  private asymmetricBest(q: Float32Array, rows: ArrayLike<number>, m: number): Uint32Array {
    const bytes = this.bits / 8;
    const table = asymmetricTable(q, this.spread, this.dim, this.bits);
    const codes = new Uint8Array(this.kernel.codes.buffer, this.kernel.codes.byteOffset, this.kernel.codes.byteLength);
    const scores = new Float32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const o = rows[i]! * bytes;
      let s = 0;
      for (let b = 0, t = 0; b < bytes; b++, t += 256) s += table[t + codes[o + b]!]!;
      scores[i] = s;
    }
    const order = Array.from({ length: rows.length }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
    return Uint32Array.from(order.slice(0, m), (i) => rows[i]!);
  }

  cosine(query: Float32Array, id: string): number | undefined {
    const r = this.rows.get(id);
    if (r === undefined) return undefined;
    this.store.read(r, this.rowBuf);
    return int8Codec.dot(query, this.rowBuf);
  }

  /** Floats decoded from the int8 rows: the index-neutral format any kind loads. */
  serialize(): Uint8Array {
    const n = this.ids.length;
    const data = new Float32Array(n * this.dim);
    for (let r = 0; r < n; r++) {
      this.store.read(r, this.rowBuf);
      data.set(int8Codec.decode(this.rowBuf, this.dim), r * this.dim);
    }
    return encodeVectors({ dim: this.dim, ids: this.ids, data });
  }
}

/** Sets `codes[o .. o + words)` to the 1-bit code of `unit`: bit j is set when unit[j] > centre[j]. */
/**
 * The codes' centre (mean) and spread (mean absolute deviation) over `n` rows: what the sign
 * bits are taken against and what the asymmetric score weighs them by. Shared by the compact
 * index and the sharded corpus writer, so both encode the same way.
 */
export function learnCentreSpread(
  n: number,
  row: (r: number) => ArrayLike<number>,
  dim: number,
  centre: Float32Array,
  spread: Float32Array,
): void {
  const mean = new Float64Array(dim);
  for (let r = 0; r < n; r++) {
    const v = row(r);
    for (let j = 0; j < dim; j++) mean[j]! += v[j]!;
  }
  for (let j = 0; j < dim; j++) centre[j] = mean[j]! / n;
  const dev = new Float64Array(dim);
  for (let r = 0; r < n; r++) {
    const v = row(r);
    for (let j = 0; j < dim; j++) dev[j]! += Math.abs(v[j]! - centre[j]!);
  }
  for (let j = 0; j < dim; j++) spread[j] = dev[j]! / n || 1e-6;
}

export function encodeSignBits(
  unit: ArrayLike<number>,
  centre: ArrayLike<number>,
  dim: number,
  codes: Uint32Array,
  o: number,
  words: number,
): void {
  codes.fill(0, o, o + words);
  for (let j = 0; j < dim; j++) if (unit[j]! > centre[j]!) codes[o + (j >>> 5)]! |= 1 << (j & 31);
}

/**
 * Byte lookup tables for q · (spread ⊙ sign bits) (the centre's share is the same for every row):
 * entry `b * 256 + v` is code byte b's contribution when it holds v.
 */
export function asymmetricTable(
  q: ArrayLike<number>,
  spread: ArrayLike<number>,
  dim: number,
  bits: number,
): Float32Array {
  const bytes = bits / 8;
  const table = new Float32Array(bytes * 256);
  for (let b = 0; b < bytes; b++) {
    const w = new Float32Array(8);
    for (let i = 0; i < 8; i++) {
      const j = b * 8 + i;
      w[i] = j < dim ? q[j]! * spread[j]! : 0;
    }
    const t = b * 256;
    let all = 0;
    for (let i = 0; i < 8; i++) all -= w[i]!;
    table[t] = all;
    // Each entry differs from the one without its lowest set bit by twice that bit's weight.
    for (let v = 1; v < 256; v++) {
      const low = v & -v;
      table[t + v] = table[t + (v ^ low)]! + 2 * w[31 - Math.clz32(low)]!;
    }
  }
  return table;
}
