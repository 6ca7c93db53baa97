// A million passages in a tab: one bit per dimension in memory, precise rows elsewhere.
//
// Three passes per query, each over far fewer rows than the one before (code-rows.ts):
//  1. every row's 1-bit RaBitQ code (rabitq.ts: signs of the row minus the library's mean, turned
//     by a fixed random rotation, and one factor a row) against the rotated question quantised to
//     4 bits a dimension, by a WebAssembly SIMD table scan over 48 bytes a row at 384-d
//     (rabitq-kernel.ts), the best `candidates` kept by a histogram of the estimates;
//  2. when `candidates` exceeds `rescore`, those against the question in floats (byte tables);
//  3. the best `rescore` of those read from the RowStore (int8, a quarter of float32;
//     on disk or OPFS for big libraries) and scored exactly against the int8 row.
// Sign-against-sign Hamming distances, the first pass before, ordered real MiniLM vectors'
// crowded candidates badly (docs/benchmarks-real.md). Memory held: codes, factors and ids; the
// rows live in the store. Adding vectors appends codes and rows; the centre is learned once, from
// the first TRAIN_AT rows (those few are re-encoded then), and never again, so no add rebuilds
// anything. With a journal (compact-journal.ts) every change is written through to files, and
// `CompactIndex.reopen` comes back from them without the float vectors.
import { FileRowStore, type ByteFile } from './byte-file';
import { CompactJournal, rowHash, type CompactFiles, type LoadedCompact } from './compact-journal';
import { CodeRows } from './code-rows';
import { codeSpace, meanOf, prepareQuery, ROTATION_SEED, type CodeSpace } from './rabitq';
import type { FastScanKernel } from './rabitq-kernel';
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
 * Rows scored exactly after the code passes. Real MiniLM vectors crowd together (random pairs at
 * cosine 0.23–0.35, against about 0 for synthetic ones), so however good the codes' order, the
 * true 10 need a few hundred rows read to be all in (docs/benchmarks-real.md).
 */
export const DEFAULT_RESCORE = 400;
/**
 * Rows kept by the fast scan for the float pass, by default: as many as are rescored, so the float
 * pass is skipped. On 100,000 real MiniLM passages the fast scan straight to 400 int8 rows held
 * recall@10 0.987 at 0.96 times the sign-code index's p50, where 2,000 → float → 400 held 0.988 at
 * 1.34 times (docs/benchmarks-real.md, "The compact index in a tab at 100,000 real passages").
 */
export const DEFAULT_CANDIDATES = DEFAULT_RESCORE;

export interface CompactOptions {
  /** Rows kept after the popcount pass (default DEFAULT_CANDIDATES, or all when fewer). */
  candidates?: number;
  /** Rows read from the store and scored exactly (default DEFAULT_RESCORE). */
  rescore?: number;
  /** Where the int8 rows go (default: in memory). Must be empty. */
  store?: RowStore;
  /** Popcount kernel, for tests and the bench (default: WASM SIMD where available). */
  kernel?: (bits: number) => FastScanKernel;
  /** Files every change is written through to (the store must then be a file too); emptied at creation. */
  files?: CompactFiles;
  /** What made the vectors (the embedding model), saved with the state: a re-open with another stamp is refused as stale. */
  stamp?: string;
}

/** Rows seen before the centre is learned from them. */
export const TRAIN_AT = 1024;

function writeEach(store: RowStore, first: number, run: Uint8Array, count: number): void {
  for (let i = 0; i < count; i++) store.write(first + i, run.subarray(i * store.rowBytes, (i + 1) * store.rowBytes));
}

export class CompactIndex implements VectorIndex {
  readonly kind = 'compact' as const;
  private ids: string[] = [];
  private rows = new Map<string, number>();
  private readonly codes: CodeRows;
  private readonly store: RowStore;
  private readonly rowBuf: Uint8Array;
  private space: CodeSpace;
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
    this.codes = new CodeRows(dim, opts.kernel);
    this.store = opts.store ?? new MemoryRowStore(int8Codec.rowBytes(dim));
    if (this.store.rowBytes !== int8Codec.rowBytes(dim))
      throw new Error(
        `row store holds ${this.store.rowBytes}-byte rows, a ${dim}-d int8 row needs ${int8Codec.rowBytes(dim)}`,
      );
    this.rowBuf = new Uint8Array(this.store.rowBytes);
    this.space = codeSpace(dim, new Float32Array(dim), ROTATION_SEED);
    this.candidates = opts.candidates ?? DEFAULT_CANDIDATES;
    this.rescore = opts.rescore ?? DEFAULT_RESCORE;
    if (opts.files) {
      this.journal = new CompactJournal(opts.files, dim, this.codes.rowWords, opts.stamp ?? '');
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
    this.codes.restore(s.codes, s.count);
    this.ids = s.ids;
    this.rows = s.rows;
    this.space = codeSpace(this.dim, s.centre, ROTATION_SEED);
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
    return rowHash(this.ids[r]!, this.codes.saved(r, r), 0, this.codes.rowWords);
  }

  private commit(): void {
    this.journal?.commit(
      { trained: this.trained, centre: this.space.centre, count: this.ids.length, sum: this.sum },
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

  /** Bytes this index holds in memory besides the ids: codes, factors, scratch and an in-memory store. */
  memoryBytes(): number {
    return this.codes.memoryBytes() + this.store.memoryBytes() + this.dim * 4;
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    if (ids.length !== vectors.length) throw new Error(`${ids.length} ids but ${vectors.length} vectors`);
    const norms = vectors.map((v) => vectorNorm(v, this.dim));
    if (this.journal) CompactJournal.check(ids);
    const fresh = new Set(ids.filter((id) => !this.rows.has(id))).size;
    const need = this.ids.length + fresh;
    this.codes.reserve(Math.max(need, Math.min(need * 2, this.ids.length * 2), 64));
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
      this.codes.encode(this.space, unit, r);
      low = Math.min(low, r);
      high = Math.max(high, r);
    });
    flush();
    if (journal) {
      if (this.trained !== wasTrained) {
        // Training re-encoded the rows before this batch: they are written again, and summed afresh.
        low = 0;
        high = this.ids.length - 1;
        this.sum = 0;
        for (let r = 0; r < this.ids.length; r++) this.sum = (this.sum + this.hashOf(r)) >>> 0;
      } else {
        for (const id of new Set(ids)) this.sum = (this.sum + this.hashOf(this.rows.get(id)!)) >>> 0;
      }
      if (high >= low) journal.writeCodes(low, this.codes.saved(low, high));
      journal.added(this.ids.slice(before));
      this.commit();
    }
  }

  /** Learns the centre (mean) once, from the stored rows and `more`, and re-encodes the stored rows. */
  private train(more: Float32Array[]): void {
    const stored: Float32Array[] = [];
    for (let r = 0; r < this.ids.length; r++) {
      this.store.read(r, this.rowBuf);
      stored.push(int8Codec.decode(this.rowBuf, this.dim));
    }
    const rows = [...stored, ...more];
    this.space = codeSpace(
      this.dim,
      meanOf(rows.length, (r) => rows[r]!, this.dim),
      ROTATION_SEED,
    );
    stored.forEach((v, r) => this.codes.encode(this.space, v, r));
    this.trained = true;
  }

  remove(ids: readonly string[]): number {
    let removed = 0;
    const journal = this.journal;
    const move = (from: number, to: number) => {
      this.codes.move(from, to);
      journal?.writeCodes(to, this.codes.saved(to, to));
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
      const cq = prepareQuery(this.space, q);
      const near =
        n <= this.candidates ? Array.from({ length: n }, (_, r) => r) : this.codes.scan(cq, n, this.candidates);
      pool = near.length > rescore ? this.codes.refine(cq, near, rescore) : near;
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
