// Writes a sharded static corpus (src/library/sharded/format.ts) from a stream of
// embedded passages, in bounded memory: pass 1 counts and keeps a reservoir sample to
// train the centroids (and the codes' centre and spread) on: the lists' centroids by one
// k-means over the sample, the top level by a k-means over those centroids; pass 2 assigns
// each passage (to its nearest list centroid),
// appends its text, and spills its fixed-size record (list, 1-bit code, int8 row, text
// pointer) and its word postings to temporary files; then each list block and its rows
// are laid out from the counts, and each word bucket is turned into shards one at a time.
// Memory holds the sample, the centroids and one word bucket, never the corpus.
import type { PassageSource } from '../../src/core/source-location';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeSignBits, learnCentreSpread } from '../../src/vector/compact-index';
import { CentroidAssigner, sphericalKMeans } from '../../src/vector/kmeans';
import {
  calibrate,
  CALIBRATION_QUERIES,
  NeighbourTracker,
  TARGET_RECALL,
  type CalibrationResult,
  type Placed,
} from './calibrate';
import { groupLists, ListAssigner, trainFlat, trainHierarchical, type Coarse } from './coarse';
import { int8Codec } from '../../src/vector/row-store';
import { vectorNorm } from '../../src/vector/vector-index';
import { idf, tfPart, withIdf } from '../../src/library/lexical/bm25';
import {
  CENTROIDS_FILE,
  centroidBlockBytes,
  codeBytes,
  encodeCentroidBlock,
  encodeIndex,
  encodeWordPage,
  encodeRowRecord,
  encodeText,
  encodeWordShard,
  INDEX_FILE,
  listBlockBytes,
  LISTS_FILE,
  rowRecordBytes,
  ROWS_FILE,
  SHORT_HASH_BYTES,
  POSTINGS_PER_TERM,
  postingWeight,
  SHARDED_FORMAT,
  SHARDED_MANIFEST,
  SHARDED_VERSION,
  termShard,
  TEXTS_FILE,
  WORD_TABLE_FILE,
  WORDS_FILE,
  type ShardedManifest,
  type TextPointer,
  type WordShard,
} from '../../src/library/sharded/format';
import { mulberry32 } from '../seeded-random';
import { TOKENIZER_VERSION, tokenize } from '../../src/library/lexical/tokenize';

export interface ShardedRow {
  id: string;
  docId: string;
  title: string;
  text: string;
  index: number;
  /** Its place in the document and the original's address on the site, when known. */
  source?: PassageSource;
  embedding: Float32Array;
  /** The list this passage belongs to, as computed elsewhere (a row of `centroids`); then the writer assigns nothing. */
  list?: number;
}

/** Iterated twice (sample, then assign): each call starts from the first row. */
export interface ShardedSource {
  rows(): AsyncIterable<ShardedRow>;
  /** Rows it holds, when known up front: the sample is then sized exactly instead of to its memory cap. */
  rowCount?: number;
}

/** List centroids computed elsewhere (e.g. faiss k-means in the embedding job). */
export interface GivenCentroids {
  /** `L × dim`; rows need not be unit length. */
  vectors: Float32Array;
  dim: number;
  /** Each list's top group (any whole numbers); else the writer groups them by a k-means over the centroids. */
  top?: Int32Array;
  /** Named in messages (the file they came from). */
  source: string;
}

export interface WriteShardedOptions {
  out: string;
  source: ShardedSource;
  model: string | null;
  /** IVF lists (= sub-centroids; default n / LIST_SIZE, so a list's bytes stay the same at any corpus size). */
  lists?: number;
  /** Top centroids (default 2√lists: start-up holds T int8 centroids, a question reads ntop × lists / T 1-bit sub-centroids, 6× smaller at 384-d; the bytes are equal at ntop 24; at most `lists`). */
  tops?: number;
  /** Precomputed list centroids: no training; passages with a `list` are not assigned either. */
  centroids?: GivenCentroids;
  /** Train one flat k-means and compare each passage with every list (default: when lists ≤ FLAT_MAX_LISTS). */
  flat?: boolean;
  /** Hierarchical assignment: a passage goes to the nearest list among its this many nearest tops' (default ASSIGN_TOPS). */
  assignTops?: number;
  /** Word shards (default n / 25: about 20–50 kB a shard, one per query term). */
  wordShards?: number;
  /** Word-table entries per page (default WORD_PAGE). */
  wordPage?: number;
  /** Bytes of postings a temporary word bucket may hold, as estimated from pass 1's text (default WORD_BUCKET_BYTES). */
  wordBucketBytes?: number;
  /** Rows kept to train the centroids (default: flat 32 a list ≤ 50,000; hierarchical 32 a list ≤ sampleBytes). */
  sample?: number;
  /** Memory cap of the training sample (float32 rows; default SAMPLE_BYTES). */
  sampleBytes?: number;
  iterations?: number;
  /** Passages taken as questions to choose the probe depth written in the manifest (default CALIBRATION_QUERIES; 0: none, the reader's defaults apply). */
  calibrate?: number;
  /**
   * Questions to choose the depth on instead of passages: unit vectors (the corpus's dimension,
   * end to end) embedded as the page embeds questions. A passage taken as a question sits among
   * its own document's passages; a short question does not: at 100k real passages the passages'
   * estimate was 0.961 where held-out questions got 0.731 (docs/benchmarks-real.md).
   */
  questions?: Float32Array;
  /** Recall@10 that depth must reach on them (default TARGET_RECALL). */
  targetRecall?: number;
  log?: (line: string) => void;
}

export interface WriteShardedResult {
  passages: number;
  tops: number;
  lists: number;
  wordShards: number;
  /** How the lists were made: 'flat' or 'hierarchical' training, 'given' centroids, or 'given lists' (the source's `list`). */
  coarse: 'flat' | 'hierarchical' | 'given' | 'given lists';
  /** Rows the centroids were trained on. */
  sampleRows: number;
  wordBuckets: number;
  /** The largest temporary word bucket, bytes (the most a bucket pass holds in memory as text). */
  largestBucket: number;
  /** Seconds: pass 1 (count, sample), training, pass 2 (assign, spill), lay out lists and rows, words. */
  seconds: { sample: number; train: number; assign: number; lists: number; words: number; calibrate: number };
  /** The process's peak resident memory (bytes) at the end of each of those steps: which step set the peak. */
  peakRss: { sample: number; train: number; assign: number; lists: number; words: number };
  /** The probe depth chosen on the corpus's own passages (also in the manifest), and every depth tried; null when not calibrated. */
  calibration: CalibrationResult | null;
  files: string[];
  bytes: Record<string, number>;
}

/** Appends through a buffer: millions of small records would otherwise be millions of writes. */
class Appender {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  written = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  write(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buf.length) this.flush();
    if (bytes.length > this.buf.length) writeSync(this.fd, bytes);
    else {
      this.buf.set(bytes, this.used);
      this.used += bytes.length;
    }
    this.written += bytes.length;
  }
  flush(): void {
    if (this.used) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * A temporary word bucket: buffered in memory, opened only to append a full buffer. With
 * thousands of buckets (tens of millions of passages) neither their buffers nor their file
 * descriptors add up: the buffers share one budget (WORD_BUFFER_BYTES).
 */
class BucketFile {
  private readonly buf: Buffer;
  private used = 0;
  written = 0;
  constructor(
    readonly path: string,
    bytes: number,
  ) {
    this.buf = Buffer.allocUnsafe(bytes);
    writeFileSync(path, '');
  }
  write(line: string): void {
    const need = Buffer.byteLength(line);
    if (this.used + need > this.buf.length) this.flush();
    if (need > this.buf.length) appendFileSync(this.path, line);
    else this.used += this.buf.write(line, this.used);
    this.written += need;
  }
  flush(): void {
    if (this.used) appendFileSync(this.path, this.buf.subarray(0, this.used));
    this.used = 0;
  }
}

/** Passages a list holds on average, by default: at 100k, 8 tops × 16 lists of ~128 reached recall@10 0.950 for 356 kB a question (bench/sharded.bench.ts); lists of ~256 cost twice the codes a list. */
export const LIST_SIZE = 128;
/** Word-table entries a page, by default: 2.5 kB a page; a page hash (16 B) per 128 shards at start-up. */
export const WORD_PAGE = 128;
/** Up to this many lists the writer trains one flat k-means and files each passage by a scan of all lists (see FLAT_MAX_LISTS_WHY). */
export const FLAT_MAX_LISTS = 4096;
/** Tops whose lists a passage is compared with, in the hierarchical path. */
export const ASSIGN_TOPS = 8;
/** Memory cap of the hierarchical training sample: 512 MiB of float32 rows (349,525 rows at 384-d, 174,762 at 768-d). */
export const SAMPLE_BYTES = 512 * 1024 * 1024;
/** Rows of sample a list, hierarchical path. */
const SAMPLE_PER_LIST = 32;
/** Postings text a temporary word bucket holds, at most (as estimated); one bucket is parsed into memory at a time. */
export const WORD_BUCKET_BYTES = 32 * 1024 * 1024;
/** Postings bytes per character of passage text, as estimated for the bucket count (measured ≈ 4.3 on the bench's text; 6 is a margin). */
const POSTING_BYTES_PER_CHAR = 6;
/** All word buckets' write buffers together. */
const WORD_BUFFER_BYTES = 64 * 1024 * 1024;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function unit(v: Float32Array, dim: number, id: string): Float32Array {
  let norm: number;
  try {
    norm = vectorNorm(v, dim);
  } catch (e) {
    throw new Error(
      `passage ${id}: ${e instanceof Error ? e.message : String(e)} (its embedding is ${v.length}-d${v.every((x) => x === 0) ? ' and all zeros' : ''})`,
    );
  }
  return Float32Array.from(v, (x) => x / norm);
}

/** A uniform sample of a stream in one float32 buffer (grown as needed up to `capacity` rows). */
class Reservoir {
  data: Float32Array;
  /** Where each row stands (the calibration's questions keep their place in their document). */
  readonly tags: Placed[] = [];
  size = 0;
  private seen = 0;
  private readonly rand: () => number;
  constructor(
    readonly dim: number,
    readonly capacity: number,
    seed = 22,
  ) {
    this.data = new Float32Array(Math.min(capacity, 4096) * dim);
    this.rand = mulberry32(seed);
  }
  /** Whether `v` was kept (for now: a later row may take its place). */
  add(v: Float32Array, tag?: Placed): boolean {
    if (this.capacity <= 0) return false;
    const j = this.size < this.capacity ? this.size++ : Math.floor(this.rand() * (this.seen + 1));
    this.seen++;
    if (j >= this.capacity) return false;
    if (tag !== undefined) this.tags[j] = tag;
    if ((j + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(Math.min(this.capacity, 2 * (this.data.length / this.dim)) * this.dim);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(v, j * this.dim);
    return true;
  }
  /** `rows` of the sample, evenly spread over it (it may be in stream order when the stream was short). */
  take(rows: number): Float32Array {
    if (rows >= this.size) return this.data.subarray(0, this.size * this.dim);
    const out = new Float32Array(rows * this.dim);
    for (let i = 0; i < rows; i++) {
      const r = Math.floor((i * this.size) / rows);
      out.set(this.data.subarray(r * this.dim, (r + 1) * this.dim), i * this.dim);
    }
    return out;
  }
}

/** Each `dim`-long row scaled to unit length (given questions may come unnormalised). */
function unitRows(rows: Float32Array, dim: number): Float32Array {
  const out = new Float32Array(rows.length);
  for (let i = 0; i < rows.length / dim; i++)
    out.set(unit(rows.subarray(i * dim, (i + 1) * dim), dim, `question ${i}`), i * dim);
  return out;
}

const clock = () => performance.now() / 1000;

/** How big the corpus's parts are, from the options and (once pass 1 has counted) the corpus size. */
function sizing(opts: WriteShardedOptions) {
  const given = opts.centroids;
  const sampleBytes = opts.sampleBytes ?? SAMPLE_BYTES;
  // Lists wanted for n passages (LIST_SIZE a list unless given).
  const listsFor = (n: number) => Math.max(1, Math.min(opts.lists ?? Math.round(n / LIST_SIZE), n));
  // The sample each path trains on, from the corpus size (known up front or after pass 1).
  const sampleRows = (n: number, dim: number, flat: boolean) => {
    const lists = listsFor(n);
    if (opts.sample) return opts.sample;
    if (given) return 50000; // the codes' centre and spread only
    if (flat) return Math.min(50000, lists * 32);
    return Math.max(1, Math.min(lists * SAMPLE_PER_LIST, Math.floor(sampleBytes / (4 * dim))));
  };
  const isFlat = (n: number) => opts.flat ?? listsFor(n) <= FLAT_MAX_LISTS;
  return { given, sampleBytes, listsFor, sampleRows, isFlat };
}

/** What pass 1 learnt: the counts, the training sample, the held-out questions, and the codes' centre and spread. */
interface Survey {
  n: number;
  dim: number;
  documents: number;
  chars: number;
  /** Passages that named their list (all or none). */
  withList: number;
  sample: Float32Array;
  /** Rows in `sample`. */
  S: number;
  /** Passages held out of the sample: the calibration's questions. */
  questions: Float32Array;
  /** Each question's document and position in it. */
  questionPlaces: Placed[];
  centre: Float32Array;
  spread: Float32Array;
}

/** Pass 1: count, a reservoir sample for the centroids, and the text's size (for the word buckets). */
async function survey(opts: WriteShardedOptions): Promise<Survey> {
  const { given, sampleBytes, sampleRows, isFlat } = sizing(opts);
  let n = 0;
  let dim = 0;
  let chars = 0;
  let withList = 0;
  let lastDoc: string | null = null;
  // Distinct documents, by a 48-bit hash of each id: Spark and Ray Data write rows in no
  // particular order, so a document's passages need not arrive together (counting changes of
  // id counted Ray's 94 documents as 103). 48 bits keep collisions rare at millions of documents.
  const docHashes = new Set<number>();
  let reservoir: Reservoir | null = null;
  // The calibration's questions are passages held out of the training sample: centroids fitted
  // to a question would route it better than a real question, and the recall measured would be
  // too high (a row kept here and later replaced is simply not trained on).
  let held: Reservoir | null = null;
  for await (const row of opts.source.rows()) {
    if (!dim) {
      dim = row.embedding.length;
      if (given && given.dim !== dim)
        throw new Error(
          `${given.source}: the centroids are ${given.dim}-d but passage ${row.id} has a ${dim}-d embedding`,
        );
      const known = opts.source.rowCount;
      reservoir = new Reservoir(
        dim,
        known
          ? sampleRows(known, dim, isFlat(known))
          : (opts.sample ?? (given ? 50000 : Math.max(50000, Math.floor(sampleBytes / (4 * dim))))),
      );
      // Given questions replace the held-out passages: none is held out then.
      held = new Reservoir(dim, opts.questions ? 0 : (opts.calibrate ?? CALIBRATION_QUERIES), 23);
      if (opts.questions && opts.questions.length % dim !== 0)
        throw new Error(`the calibration questions are not ${dim}-d vectors, as the passages are`);
    }
    if (row.embedding.length !== dim)
      throw new Error(`passage ${row.id} has a ${row.embedding.length}-d embedding, the first had ${dim}`);
    if (row.docId !== lastDoc) docHashes.add(createHash('md5').update(row.docId).digest().readUIntBE(0, 6));
    lastDoc = row.docId;
    if (row.list !== undefined) {
      if (!given)
        throw new Error(
          `passage ${row.id} names a list (${row.list}) but no centroids were given for it (--centroids)`,
        );
      if (!Number.isInteger(row.list) || row.list < 0 || row.list >= given.vectors.length / dim)
        throw new Error(
          `passage ${row.id}: list ${row.list} is out of range (${given.source} has ${given.vectors.length / dim} lists, 0 to ${given.vectors.length / dim - 1})`,
        );
      withList++;
    }
    const v = unit(row.embedding, dim, row.id);
    if (!held!.add(v, { docId: row.docId, index: row.index })) reservoir!.add(v);
    chars += row.title.length + row.text.length;
    n++;
  }
  if (!n) throw new Error('no passages to index');
  if (withList && withList !== n)
    throw new Error(
      `${withList} of ${n} passages name a list and the others do not: give a list for every passage or for none`,
    );
  // A small corpus cannot spare its held-out rows: they are trained on too (its recall is then measured a little high).
  if (reservoir!.size < 10 * held!.size)
    for (let i = 0; i < held!.size; i++) reservoir!.add(held!.data.subarray(i * dim, (i + 1) * dim));
  const sample = reservoir!.take(sampleRows(n, dim, isFlat(n)));
  const S = sample.length / dim;
  // The codes' centre and spread, learnt as the compact index learns them.
  const centre = new Float32Array(dim);
  const spread = new Float32Array(dim);
  learnCentreSpread(S, (r) => sample.subarray(r * dim, (r + 1) * dim), dim, centre, spread);
  return {
    n,
    dim,
    documents: docHashes.size,
    chars,
    withList,
    sample,
    S,
    questions: opts.questions ? unitRows(opts.questions, dim) : held!.take(held!.size),
    questionPlaces: opts.questions ? [] : held!.tags.slice(0, held!.size),
    centre,
    spread,
  };
}

/** The coarse structure: top centroids and their lists, and how each passage finds its list. */
interface Trained {
  coarse: Coarse;
  how: WriteShardedResult['coarse'];
  tops: number;
  /** Lists under each top. */
  subs: number[];
  /** Number of each top's first list. */
  firstList: number[];
  lists: number;
  nearestSub(v: Float32Array, r: ShardedRow): number;
}

/** Trains (or takes) the centroids: flat k-means for few lists, hierarchical for many, or given ones grouped under tops. */
function train(opts: WriteShardedOptions, s: Survey, log: (line: string) => void): Trained {
  const { given, listsFor, isFlat } = sizing(opts);
  const { n, dim, sample, S } = s;
  const t0 = clock();
  const iterations = opts.iterations ?? 6;
  const assignTops = Math.max(1, opts.assignTops ?? ASSIGN_TOPS);
  const flat = isFlat(n);
  const wanted = listsFor(n);
  let coarse: Coarse;
  let how: WriteShardedResult['coarse'];
  if (given) {
    const L = given.vectors.length / dim;
    const tops = Math.max(1, Math.min(opts.tops ?? Math.round(2 * Math.sqrt(L)), L));
    const rows = new Float32Array(L * dim);
    for (let c = 0; c < L; c++)
      rows.set(unit(given.vectors.subarray(c * dim, (c + 1) * dim), dim, `${given.source} row ${c}`), c * dim);
    log(
      `${n} passages, ${dim}-d; ${L} lists from ${given.source}${given.top ? ' under their given tops' : `, grouped under ${tops} top centroids`}`,
    );
    coarse = groupLists(rows, dim, tops, iterations, given.top);
    how = s.withList ? 'given lists' : 'given';
  } else {
    const tops = Math.max(1, Math.min(opts.tops ?? Math.round(2 * Math.sqrt(wanted)), wanted));
    log(
      `${n} passages, ${dim}-d; training ${tops} top centroids and about ${wanted} lists (${flat ? 'one flat k-means' : `hierarchical, each passage among its ${assignTops} nearest tops' lists`}) on ${S} of them`,
    );
    // Small corpora: the lists' centroids by one flat k-means, then grouped under tops (trained per
    // top alone, 894 lists reached recall@10 0.943 at 16 × 16 where flat ones reached 0.975, 100k).
    // Large: flat k-means is O(sample × lists) an iteration, so tops first, then each top's lists,
    // then rounds in which neighbouring tops' lists compete for the sample (coarse.ts).
    coarse = flat
      ? trainFlat(sample, dim, wanted, tops, iterations)
      : trainHierarchical(sample, dim, wanted, tops, iterations, assignTops);
    how = flat ? 'flat' : 'hierarchical';
  }
  const tops = coarse.tops.length / dim;
  const subs = coarse.subs.map((m) => m.length / dim);
  const firstList: number[] = [];
  let lists = 0;
  for (const k of subs) {
    firstList.push(lists);
    lists += k;
  }
  log(`${tops} top centroids, ${lists} lists (${(clock() - t0).toFixed(1)} s)`);
  // Flat where the lists are few (the passages' exact nearest list); else among the nearest tops' lists.
  const scan = opts.flat ?? lists <= FLAT_MAX_LISTS;
  const assigner = how === 'given lists' ? null : new ListAssigner(coarse, scan ? 'all' : assignTops);
  const listOf = coarse.listOf;
  const nearestSub = (v: Float32Array, r: ShardedRow) =>
    r.list !== undefined ? listOf![r.list]! : assigner!.nearest(v);
  return { coarse, how, tops, subs, firstList, lists, nearestSub };
}

/** Byte sizes of the records at this dimension. */
function shapeOf(dim: number) {
  const cb = codeBytes(dim);
  const rb = rowRecordBytes(dim);
  return { dim, rowBytes: int8Codec.rowBytes(dim), cb, words32: cb / 4, rb, recordBytes: 4 + cb + rb };
}
type Shape = ReturnType<typeof shapeOf>;

/** What pass 2 spilled: each list's count, the texts' size, the word buckets. */
interface Assigned {
  counts: Uint32Array;
  /** Sum of the passages' lengths in distinct terms. */
  totalLength: number;
  textBytes: number;
  buckets: BucketFile[];
  bucketOf(shard: number): number;
  largestBucket: number;
}

/** Pass 2: assign each passage to its list, append its text, spill its record (list, code, row record) and its postings. */
async function assign(
  opts: WriteShardedOptions,
  out: string,
  tmp: string,
  s: Survey,
  t: Trained,
  wordShards: number,
  tracker: NeighbourTracker | null,
  log: (line: string) => void,
): Promise<Assigned> {
  const { n, dim, centre } = s;
  const { cb, words32, rowBytes, recordBytes } = shapeOf(dim);
  const texts = new Appender(join(out, TEXTS_FILE));
  const records = new Appender(join(tmp, 'records.bin'));
  // Enough buckets that each holds about wordBucketBytes of postings (estimated from the text's size).
  const bucketCount = Math.max(
    1,
    Math.min(wordShards, Math.ceil((s.chars * POSTING_BYTES_PER_CHAR) / (opts.wordBucketBytes ?? WORD_BUCKET_BYTES))),
  );
  const bufferBytes = Math.max(4096, Math.min(1 << 20, Math.floor(WORD_BUFFER_BYTES / bucketCount)));
  const buckets = Array.from(
    { length: bucketCount },
    (_, b) => new BucketFile(join(tmp, `words-${b}.tsv`), bufferBytes),
  );
  // Consecutive shards share a bucket, so writing the buckets in turn lays the shards out in order.
  const bucketOf = (sh: number) => Math.floor((sh * buckets.length) / wordShards);
  const counts = new Uint32Array(t.lists);
  const record = new Uint8Array(recordBytes);
  const view = new DataView(record.buffer);
  const code = new Uint32Array(words32);
  const row = new Uint8Array(rowBytes);
  let totalLength = 0;
  let done = 0;
  for await (const r of opts.source.rows()) {
    const v = unit(r.embedding, dim, r.id);
    const c = t.nearestSub(v, r);
    counts[c]!++;
    const bytes = encodeText(r);
    const pointer: TextPointer = { offset: texts.written, bytes: bytes.length, hash: sha256(bytes).slice(0, 16) };
    texts.write(bytes);
    view.setUint32(0, c, true);
    encodeSignBits(v, centre, dim, code, 0, words32);
    record.set(new Uint8Array(code.buffer), 4);
    tracker?.add(v, c, new Uint8Array(code.buffer), { docId: r.docId, index: r.index });
    int8Codec.encode(v, row);
    encodeRowRecord(row, pointer, record.subarray(4 + cb));
    records.write(record);
    // A passage's length is its number of distinct terms, as the in-tab index counts it (bm25.ts).
    const tf = new Map<string, number>();
    for (const term of tokenize(`${r.title}\n${r.text}`)) tf.set(term, (tf.get(term) ?? 0) + 1);
    totalLength += tf.size;
    for (const [term, f] of tf) {
      if (term.includes('\t') || term.includes('\n')) continue;
      buckets[bucketOf(termShard(term, wordShards))]!.write(
        `${term}\t${pointer.offset}\t${pointer.bytes}\t${pointer.hash}\t${f}\t${tf.size}\n`,
      );
    }
    if (++done % 100000 === 0) log(`assigned ${done} / ${n}`);
  }
  if (done !== n) throw new Error(`the source gave ${n} passages on the first pass and ${done} on the second`);
  texts.close();
  records.close();
  for (const b of buckets) b.flush();
  const largestBucket = buckets.reduce((m, b) => Math.max(m, b.written), 0);
  log(
    `word postings: ${buckets.reduce((a, b) => a + b.written, 0)} bytes in ${buckets.length} buckets (largest ${largestBucket}; ${s.chars} characters of text)`,
  );
  return { counts, totalLength, textBytes: texts.written, buckets, bucketOf, largestBucket };
}

/** Where each list's block lies in lists.bin and its first row in rows.bin, and each list's hash. */
interface ListLayout {
  listOffset: number[];
  firstRow: number[];
  listSha: string[];
}

/**
 * Lists and rows: each block's place follows from the counts; records are scattered into place.
 * A list holds its codes, then its rows' record hashes; rows.bin holds the records in list order.
 */
function layOutLists(out: string, tmp: string, shape: Shape, counts: Uint32Array): ListLayout {
  const { dim, cb, rb, recordBytes } = shape;
  const lists = counts.length;
  const listOffset: number[] = [];
  const firstRow: number[] = [];
  for (let c = 0, at = 0, r = 0; c < lists; c++) {
    listOffset.push(at);
    firstRow.push(r);
    at += listBlockBytes(counts[c]!, dim);
    r += counts[c]!;
  }
  const listsFd = openSync(join(out, LISTS_FILE), 'w+');
  const rowsFd = openSync(join(out, ROWS_FILE), 'w+');
  const filled = new Uint32Array(lists);
  const head = new Uint8Array(4);
  for (let c = 0; c < lists; c++) {
    new DataView(head.buffer).setUint32(0, counts[c]!, true);
    writeSync(listsFd, head, 0, 4, listOffset[c]!);
  }
  const recFd = openSync(join(tmp, 'records.bin'), 'r');
  const chunk = Buffer.allocUnsafe(recordBytes * 4096);
  for (let read = 0; ; ) {
    const got = readSync(recFd, chunk, 0, chunk.length, read);
    if (got <= 0) break;
    read += got;
    for (let o = 0; o + recordBytes <= got; o += recordBytes) {
      const c = chunk.readUInt32LE(o);
      const i = filled[c]!++;
      const base = listOffset[c]!;
      const rec = chunk.subarray(o + 4 + cb, o + recordBytes);
      writeSync(listsFd, chunk, o + 4, cb, base + 4 + i * cb);
      writeSync(
        listsFd,
        createHash('sha256').update(rec).digest(),
        0,
        SHORT_HASH_BYTES,
        base + 4 + counts[c]! * cb + i * SHORT_HASH_BYTES,
      );
      writeSync(rowsFd, rec, 0, rb, (firstRow[c]! + i) * rb);
    }
  }
  closeSync(recFd);
  // Each list's rows reordered so near rows sit together (one list in memory at a time), then hashed.
  const listSha: string[] = [];
  for (let c = 0; c < lists; c++) {
    const count = counts[c]!;
    const block = Buffer.allocUnsafe(listBlockBytes(count, dim));
    readSync(listsFd, block, 0, block.length, listOffset[c]!);
    const recs = Buffer.allocUnsafe(count * rb);
    readSync(rowsFd, recs, 0, recs.length, firstRow[c]! * rb);
    const order = localOrder(recs, count, dim);
    if (order) {
      const hashAt = 4 + count * cb;
      const codes = Buffer.from(block.subarray(4, hashAt));
      const hashes = Buffer.from(block.subarray(hashAt));
      const before = Buffer.from(recs);
      order.forEach((from, to) => {
        codes.copy(block, 4 + to * cb, from * cb, (from + 1) * cb);
        hashes.copy(block, hashAt + to * SHORT_HASH_BYTES, from * SHORT_HASH_BYTES, (from + 1) * SHORT_HASH_BYTES);
        before.copy(recs, to * rb, from * rb, (from + 1) * rb);
      });
      writeSync(listsFd, block, 0, block.length, listOffset[c]!);
      writeSync(rowsFd, recs, 0, recs.length, firstRow[c]! * rb);
    }
    listSha.push(sha256(block));
  }
  closeSync(rowsFd);
  closeSync(listsFd);
  return { listOffset, firstRow, listSha };
}

/**
 * Words: one bucket in memory at a time; BM25 weights need only the global n and mean length.
 * The word-shard table is written a page at a time as the shards come, in order; index.bin
 * keeps each page's hash (nothing per shard stays in memory). Returns the pages' hashes.
 */
function writeWords(out: string, n: number, wordShards: number, wordPage: number, a: Assigned): string[] {
  const avgLength = a.totalLength / n || 1;
  const { buckets, bucketOf } = a;
  const shards = new Map<number, WordShard>();
  const words = new Appender(join(out, WORDS_FILE));
  const table = new Appender(join(out, WORD_TABLE_FILE));
  const pageSha: string[] = [];
  let pageBytes: number[] = [];
  let pageHashes: string[] = [];
  let pageStart = 0;
  const endPage = () => {
    const page = encodeWordPage(pageStart, pageBytes, pageHashes);
    pageSha.push(sha256(page));
    table.write(page);
    pageStart = words.written;
    pageBytes = [];
    pageHashes = [];
  };
  const emit = (shard: WordShard) => {
    const bytes = encodeWordShard(shard);
    pageBytes.push(bytes.length);
    pageHashes.push(sha256(bytes));
    words.write(bytes);
    if (pageBytes.length === wordPage) endPage();
  };
  // Shards are written in shard order; empty shards are written too (the table stays dense).
  // A term keeps its POSTINGS_PER_TERM best postings. Its idf is the same for all of them, so
  // they are the best by the tf part alone, which is known line by line: each term holds at
  // most twice the cap while its bucket is read (in chunks), however common the term (at 21M,
  // "the" alone would be a gigabyte of lines). The weight kept is the whole term score (bm25.ts).
  type Posting = [offset: number, bytes: number, hashHigh: number, hashLow: number, key: number];
  const byKey = (x: Posting, y: Posting) => y[4] - x[4];
  const hex = (h: number, l: number) => h.toString(16).padStart(8, '0') + l.toString(16).padStart(8, '0');
  const lineBuf = Buffer.allocUnsafe(8 << 20);
  for (let b = 0; b < buckets.length; b++) {
    const postings = new Map<string, { df: number; p: Posting[] }>();
    const fd = openSync(buckets[b]!.path, 'r');
    // Whole lines are decoded; the bytes after a chunk's last newline wait for the next read.
    for (let carry = 0; ; ) {
      const got = readSync(fd, lineBuf, carry, lineBuf.length - carry, null);
      const end = carry + got;
      const cut = got > 0 ? lineBuf.lastIndexOf(0x0a, end - 1) + 1 : end;
      for (const line of lineBuf.toString('utf8', 0, cut).split('\n')) {
        if (!line) continue;
        const [t, off, len, hash, f, dl] = line.split('\t') as [string, string, string, string, string, string];
        let term = postings.get(t);
        // Kept strings are copied out of the chunk's text (a slice would keep all 8 MB of it alive),
        // and the hash is kept as two numbers.
        if (!term) postings.set(Buffer.from(t).toString(), (term = { df: 0, p: [] }));
        term.df++;
        term.p.push([
          Number(off),
          Number(len),
          parseInt(hash.slice(0, 8), 16),
          parseInt(hash.slice(8), 16),
          tfPart(Number(f), Number(dl), avgLength),
        ]);
        if (term.p.length >= 2 * POSTINGS_PER_TERM) term.p = term.p.sort(byKey).slice(0, POSTINGS_PER_TERM);
      }
      lineBuf.copy(lineBuf, 0, cut, end);
      carry = end - cut;
      if (got <= 0) break;
    }
    closeSync(fd);
    rmSync(buckets[b]!.path);
    shards.clear();
    for (const [t, { df, p: list }] of postings) {
      const w = idf(df, n);
      const weighted = list
        .sort(byKey)
        .slice(0, POSTINGS_PER_TERM)
        .map(
          ([off, len, h, l, key]) =>
            [off, len, hex(h, l), postingWeight(withIdf(w, key))] as [number, number, string, number],
        );
      const s = termShard(t, wordShards);
      let shard = shards.get(s);
      if (!shard) shards.set(s, (shard = {}));
      shard[t] = { df, p: weighted };
    }
    for (let s = Math.ceil((b * wordShards) / buckets.length); s < wordShards && bucketOf(s) === b; s++)
      emit(shards.get(s) ?? {});
  }
  if (pageBytes.length) endPage();
  words.close();
  table.close();
  return pageSha;
}

/** `k` rows of `f` as 1-bit codes against the corpus centre, as the lists keep passages. */
function signCodes(f: Float32Array, k: number, s: Survey): Uint8Array {
  const { dim, centre } = s;
  const { words32 } = shapeOf(dim);
  const o = new Uint32Array(k * words32);
  for (let c = 0; c < k; c++) encodeSignBits(f.subarray(c * dim, (c + 1) * dim), centre, dim, o, c * words32, words32);
  return new Uint8Array(o.buffer);
}

/**
 * One centroid block per top (its sub-centroids' 1-bit codes and their lists' counts and
 * hashes), then index.bin, which keeps each block's hash and each word-table page's. Returns
 * index.bin's bytes and the tops as int8 rows.
 */
function writeCentroids(
  out: string,
  s: Survey,
  t: Trained,
  counts: Uint32Array,
  l: ListLayout,
  pageSha: string[],
): { index: Uint8Array; topCentroids: Uint8Array } {
  const { dim } = s;
  const { rowBytes } = shapeOf(dim);
  const blocks = new Appender(join(out, CENTROIDS_FILE));
  const blockSha: string[] = [];
  for (let top = 0; top < t.tops; top++) {
    const c0 = t.firstList[top]!,
      k = t.subs[top]!;
    const block = encodeCentroidBlock(
      dim,
      l.listOffset[c0]!,
      l.firstRow[c0]!,
      signCodes(t.coarse.subs[top]!, k, s),
      counts.subarray(c0, c0 + k),
      l.listSha.slice(c0, c0 + k),
    );
    blockSha.push(sha256(block));
    blocks.write(block);
  }
  blocks.close();
  const topCentroids = new Uint8Array(t.tops * rowBytes);
  for (let c = 0; c < t.tops; c++)
    int8Codec.encode(
      t.coarse.tops.subarray(c * dim, (c + 1) * dim),
      topCentroids.subarray(c * rowBytes, (c + 1) * rowBytes),
    );
  const index = encodeIndex(dim, s.centre, s.spread, topCentroids, { subs: t.subs, sha: blockSha }, pageSha);
  writeFileSync(join(out, INDEX_FILE), index);
  return { index, topCentroids };
}

/** The probe depth, measured on the written blocks by the reader's own routing and ranking. */
function calibrateDepth(
  opts: WriteShardedOptions,
  out: string,
  s: Survey,
  t: Trained,
  counts: Uint32Array,
  l: ListLayout,
  topCentroids: Uint8Array,
  tracker: NeighbourTracker,
  log: (line: string) => void,
): CalibrationResult {
  const { dim } = s;
  const { cb, rb } = shapeOf(dim);
  const fd = openSync(join(out, LISTS_FILE), 'r');
  let calibration: CalibrationResult;
  try {
    calibration = calibrate(
      tracker,
      {
        dim,
        topCentroids,
        subs: t.subs,
        subCodes: (top) => signCodes(t.coarse.subs[top]!, t.subs[top]!, s),
        listCodes: (c) => {
          const codes = Buffer.allocUnsafe(counts[c]! * cb);
          readSync(fd, codes, 0, codes.length, l.listOffset[c]! + 4);
          return codes;
        },
        blockBytes: (top) => centroidBlockBytes(t.subs[top]!, dim),
        listBytes: (c) => listBlockBytes(counts[c]!, dim),
        rowBytes: rb,
      },
      opts.targetRecall ?? TARGET_RECALL,
    );
  } finally {
    closeSync(fd);
  }
  const { ntop, nprobe, rescore, recall, lower, target, vectorBytes } = calibration;
  const Q = s.questions.length / dim;
  log(
    `probe depth: ${ntop} tops × ${nprobe} lists, rescoring ${rescore}: recall@10 ${recall} (95 % lower bound ${lower}) on ${Q} ${opts.questions ? 'questions given' : 'of its own passages'} (target ${target}${lower < target ? ', not reached by any depth tried' : ''}), ~${Math.round(vectorBytes / 1024)} kB of vectors a question`,
  );
  return calibration;
}

/**
 * Writes the corpus in its steps: survey (pass 1), train, assign (pass 2), lay out the lists and
 * rows, write the words, write the centroid blocks and index.bin, calibrate the probe depth, and
 * last the manifest, so a reader never finds a manifest naming blocks that are not there yet.
 */
export async function writeSharded(opts: WriteShardedOptions): Promise<WriteShardedResult> {
  const log = opts.log ?? (() => undefined);
  const out = resolve(opts.out);
  mkdirSync(out, { recursive: true });
  const tmp = join(out, '.sharded-tmp');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  try {
    const seconds = { sample: 0, train: 0, assign: 0, lists: 0, words: 0, calibrate: 0 };
    const peakRss = { ...seconds };
    const peak = () => process.resourceUsage().maxRSS * 1024;
    let t0 = clock();
    const step = (name: keyof typeof peakRss & keyof typeof seconds) => {
      seconds[name] = clock() - t0;
      peakRss[name] = peak();
      t0 = clock();
    };
    const s = await survey(opts);
    step('sample');
    const { n, dim } = s;
    const wordShards = Math.max(1, opts.wordShards ?? Math.ceil(n / 25));
    const wordPage = Math.max(1, opts.wordPage ?? WORD_PAGE);
    const t = train(opts, s, log);
    const Q = s.questions.length / dim;
    const tracker = Q > 0 ? new NeighbourTracker(s.questions, dim, s.spread, s.questionPlaces) : null;
    step('train');
    const a = await assign(opts, out, tmp, s, t, wordShards, tracker, log);
    step('assign');
    const layout = layOutLists(out, tmp, shapeOf(dim), a.counts);
    step('lists');
    const pageSha = writeWords(out, n, wordShards, wordPage, a);
    step('words');
    const { index, topCentroids } = writeCentroids(out, s, t, a.counts, layout, pageSha);
    t0 = clock();
    const calibration = tracker ? calibrateDepth(opts, out, s, t, a.counts, layout, topCentroids, tracker, log) : null;
    seconds.calibrate = clock() - t0;

    const manifest: ShardedManifest = {
      format: SHARDED_FORMAT,
      version: SHARDED_VERSION,
      model: opts.model,
      dim,
      passages: n,
      documents: s.documents,
      createdAt: new Date().toISOString(),
      codec: 'sign+int8',
      index: { file: INDEX_FILE, bytes: index.length, sha256: sha256(index) },
      centroids: { file: CENTROIDS_FILE, tops: t.tops },
      lists: { file: LISTS_FILE, count: t.lists },
      rows: { file: ROWS_FILE },
      texts: { file: TEXTS_FILE, bytes: a.textBytes },
      words: {
        file: WORDS_FILE,
        count: wordShards,
        table: WORD_TABLE_FILE,
        page: wordPage,
        passages: n,
        avgLength: a.totalLength / n || 1,
        tokenizer: TOKENIZER_VERSION,
      },
      ...(calibration
        ? {
            probe: {
              ntop: calibration.ntop,
              nprobe: calibration.nprobe,
              rescore: calibration.rescore,
              recall: calibration.recall,
              lower: calibration.lower,
              target: calibration.target,
              queries: calibration.queries,
            },
          }
        : {}),
    };
    // Written last: a reader never finds a manifest naming blocks that are not there yet.
    writeFileSync(join(out, SHARDED_MANIFEST), JSON.stringify(manifest));
    const files = [
      SHARDED_MANIFEST,
      INDEX_FILE,
      CENTROIDS_FILE,
      LISTS_FILE,
      ROWS_FILE,
      TEXTS_FILE,
      WORD_TABLE_FILE,
      WORDS_FILE,
    ];
    const bytes = Object.fromEntries(files.map((f) => [f, readSize(join(out, f))]));
    return {
      passages: n,
      tops: t.tops,
      lists: t.lists,
      wordShards,
      coarse: t.how,
      sampleRows: s.S,
      wordBuckets: a.buckets.length,
      largestBucket: a.largestBucket,
      seconds,
      peakRss,
      calibration,
      files: files.map((f) => join(out, f)),
      bytes,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Rows per group when a list is put in local order. */
const GROUP = 16;

/**
 * An order of one list's row records in which near rows sit together: grouped by a small
 * k-means (about GROUP rows a group), the groups chained nearest first. A question's best
 * candidates then fall in a few runs of rows.bin, so fewer range requests fetch them.
 * Null when the list is too small to gain.
 */
function localOrder(recs: Uint8Array, count: number, dim: number): number[] | null {
  const k = Math.ceil(count / GROUP);
  if (k <= 1) return null;
  const rb = rowRecordBytes(dim);
  const flat = new Float32Array(count * dim);
  for (let i = 0; i < count; i++)
    flat.set(int8Codec.decode(recs.subarray(i * rb, i * rb + int8Codec.rowBytes(dim)), dim), i * dim);
  const model = sphericalKMeans(flat, dim, k, 4);
  const assigner = new CentroidAssigner(model);
  const group = Array.from({ length: count }, (_, i) => assigner.nearest(flat.subarray(i * dim, (i + 1) * dim))[0]!);
  const cent = model.centroids;
  const dot = (a: number, b: number) => {
    let s = 0;
    for (let j = 0; j < dim; j++) s += cent[a * dim + j]! * cent[b * dim + j]!;
    return s;
  };
  const place = new Array<number>(k).fill(-1);
  for (let at = 0, g = 0; at < k; at++) {
    place[g] = at;
    let next = -1;
    for (let h = 0; h < k; h++) if (place[h] === -1 && (next < 0 || dot(g, h) > dot(g, next))) next = h;
    if (next < 0) break;
    g = next;
  }
  return Array.from({ length: count }, (_, i) => i).sort((a, b) => place[group[a]!]! - place[group[b]!]! || a - b);
}

function readSize(path: string): number {
  return statSync(path).size;
}
