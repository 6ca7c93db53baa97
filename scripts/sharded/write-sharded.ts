// Writes a sharded static corpus (src/library/sharded/format.ts) from a stream of
// embedded passages, in bounded memory: pass 1 counts and keeps a reservoir sample to
// train the centroids (and the codes' centre and spread) on: the lists' centroids by one
// k-means over the sample, the top level by a k-means over those centroids; pass 2 assigns
// each passage (to its nearest list centroid),
// appends its text, and spills its fixed-size record (list, 1-bit code, int8 row, text
// pointer) and its word postings to temporary files; then each list block and its rows
// are laid out from the counts, and each word bucket is turned into shards one at a time.
// Memory holds the sample, the centroids and one word bucket, never the corpus.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeSignBits } from '../../src/core/compact-index';
import { CentroidAssigner, sphericalKMeans } from '../../src/core/kmeans';
import { int8Codec } from '../../src/core/row-store';
import { vectorNorm } from '../../src/core/vector-index';
import {
  bm25Weight,
  CENTROIDS_FILE,
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
  embedding: Float32Array;
}

/** Iterated twice (sample, then assign): each call starts from the first row. */
export interface ShardedSource {
  rows(): AsyncIterable<ShardedRow>;
}

export interface WriteShardedOptions {
  out: string;
  source: ShardedSource;
  model: string | null;
  /** IVF lists (= sub-centroids; default n / LIST_SIZE, so a list's bytes stay the same at any corpus size). */
  lists?: number;
  /** Top centroids (default 2√lists: start-up holds T int8 centroids, a question reads ntop × lists / T 1-bit sub-centroids, 6× smaller at 384-d; the bytes are equal at ntop 24; at most `lists`). */
  tops?: number;
  /** Word shards (default n / 25: about 20–50 kB a shard, one per query term). */
  wordShards?: number;
  /** Word-shard table entries per page (default WORD_PAGE). */
  wordPage?: number;
  /** Rows kept to train the centroids (default 32 per list, at most 50,000). */
  sample?: number;
  iterations?: number;
  log?: (line: string) => void;
}

export interface WriteShardedResult {
  passages: number;
  tops: number;
  lists: number;
  wordShards: number;
  files: string[];
  bytes: Record<string, number>;
}

/** Appends through a 1 MB buffer: millions of small records would otherwise be millions of writes. */
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

const WORD_BUCKETS = 64;
/** Passages a list holds on average, by default: at 100k, 8 tops × 16 lists of ~128 reached recall@10 0.950 for 356 kB a question (bench/sharded.bench.ts); lists of ~256 cost twice the codes a list. */
export const LIST_SIZE = 128;
/** Word-table entries a page, by default: 2.5 kB a page; a page hash (16 B) per 128 shards at start-up. */
export const WORD_PAGE = 128;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function unit(v: Float32Array, dim: number, id: string): Float32Array {
  let norm: number;
  try {
    norm = vectorNorm(v, dim);
  } catch (e) {
    throw new Error(`passage ${id}: ${e instanceof Error ? e.message : String(e)} (its embedding is ${v.length}-d${v.every((x) => x === 0) ? ' and all zeros' : ''})`);
  }
  return Float32Array.from(v, (x) => x / norm);
}

export async function writeSharded(opts: WriteShardedOptions): Promise<WriteShardedResult> {
  const log = opts.log ?? (() => undefined);
  const out = resolve(opts.out);
  mkdirSync(out, { recursive: true });
  const tmp = join(out, '.sharded-tmp');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  try {
    // Pass 1: count, and a reservoir sample for the centroids.
    let n = 0;
    let dim = 0;
    let documents = 0;
    let lastDoc: string | null = null;
    const rand = mulberry32(22);
    let sampleSize = 0;
    let sample: Float32Array[] = [];
    for await (const row of opts.source.rows()) {
      if (!dim) {
        dim = row.embedding.length;
        sampleSize = opts.sample ?? 50000;
      }
      if (row.embedding.length !== dim) throw new Error(`passage ${row.id} has a ${row.embedding.length}-d embedding, the first had ${dim}`);
      if (row.docId !== lastDoc) documents++;
      lastDoc = row.docId;
      const v = unit(row.embedding, dim, row.id);
      if (sample.length < sampleSize) sample.push(v);
      else {
        const j = Math.floor(rand() * (n + 1));
        if (j < sampleSize) sample[j] = v;
      }
      n++;
    }
    if (!n) throw new Error('no passages to index');
    const wanted = Math.max(1, Math.min(opts.lists ?? Math.round(n / LIST_SIZE), n));
    let tops = Math.max(1, Math.min(opts.tops ?? Math.round(2 * Math.sqrt(wanted)), wanted));
    const wordShards = Math.max(1, opts.wordShards ?? Math.ceil(n / 25));
    const wordPage = Math.max(1, opts.wordPage ?? WORD_PAGE);
    const keep = Math.min(sample.length, opts.sample ?? Math.min(50000, wanted * 32));
    sample = sample.slice(0, keep);
    log(`${n} passages, ${dim}-d; training ${tops} top centroids and about ${wanted} sub-centroids on ${sample.length} of them`);
    const flatSample = new Float32Array(sample.length * dim);
    sample.forEach((v, i) => flatSample.set(v, i * dim));
    // The codes' centre (mean) and spread (mean absolute deviation), as the compact index learns them.
    const centre = new Float32Array(dim);
    const spread = new Float32Array(dim);
    {
      const mean = new Float64Array(dim);
      for (const v of sample) for (let j = 0; j < dim; j++) mean[j]! += v[j]!;
      for (let j = 0; j < dim; j++) centre[j] = mean[j]! / sample.length;
      const dev = new Float64Array(dim);
      for (const v of sample) for (let j = 0; j < dim; j++) dev[j]! += Math.abs(v[j]! - centre[j]!);
      for (let j = 0; j < dim; j++) spread[j] = dev[j]! / sample.length || 1e-6;
    }
    sample = [];
    const iterations = opts.iterations ?? 6;
    // The lists' centroids are trained together on the sample, as one flat k-means: trained per top
    // cell instead (each cell's sample rows alone), 894 lists reached recall@10 0.943 at 16 tops ×
    // 16 lists where format 2's flat 894 reached 0.975 (100k; bench/sharded.bench.ts), because
    // centroids of neighbouring cells never compete for the rows between them. The top level is
    // then a k-means over those centroids, and each list goes to the block of its nearest top.
    const flatModel = sphericalKMeans(flatSample, dim, wanted, iterations);
    const L0 = flatModel.centroids.length / dim;
    const grouped = sphericalKMeans(flatModel.centroids, dim, Math.min(tops, L0), iterations);
    const groupAssigner = new CentroidAssigner(grouped);
    const members: number[][] = Array.from({ length: grouped.centroids.length / dim }, () => []);
    for (let c = 0; c < L0; c++) members[groupAssigner.nearest(flatModel.centroids.subarray(c * dim, (c + 1) * dim))[0]!]!.push(c);
    // A top that no list chose is dropped (its block would be empty).
    const kept = members.map((m, t) => ({ m, t })).filter(({ m }) => m.length);
    tops = kept.length;
    const topModel = { dim, centroids: new Float32Array(tops * dim) };
    kept.forEach(({ t }, i) => topModel.centroids.set(grouped.centroids.subarray(t * dim, (t + 1) * dim), i * dim));
    const subModels = kept.map(({ m }) => {
      const centroids = new Float32Array(m.length * dim);
      m.forEach((c, i) => centroids.set(flatModel.centroids.subarray(c * dim, (c + 1) * dim), i * dim));
      return { dim, centroids };
    });
    const subs = subModels.map((m) => m.centroids.length / dim);
    const firstList: number[] = [];
    let lists = 0;
    for (const k of subs) {
      firstList.push(lists);
      lists += k;
    }
    log(`${tops} top centroids, ${lists} lists`);
    // A passage goes to the nearest list centroid of all, so the lists are exactly format 2's
    // partition and recall depends only on which blocks a question reads. (Filing it among its 8
    // nearest tops' lists measured the same at 100k; at 21M this flat scan is for faiss anyway.)
    const allSubs = new Float32Array(lists * dim);
    subModels.forEach((m, t) => allSubs.set(m.centroids, firstList[t]! * dim));
    const listAssigner = new CentroidAssigner({ dim, centroids: allSubs });
    const nearestSub = (v: Float32Array) => listAssigner.nearest(v)[0]!;

    // Pass 2: assign, append texts, spill records (list, code, row record) and postings.
    const rowBytes = int8Codec.rowBytes(dim);
    const cb = codeBytes(dim);
    const words32 = cb / 4;
    const rb = rowRecordBytes(dim);
    const recordBytes = 4 + cb + rb;
    const texts = new Appender(join(out, TEXTS_FILE));
    const records = new Appender(join(tmp, 'records.bin'));
    const buckets = Array.from({ length: Math.min(WORD_BUCKETS, wordShards) }, (_, b) => new Appender(join(tmp, `words-${b}.tsv`)));
    // Consecutive shards share a bucket, so writing the buckets in turn lays the shards out in order.
    const bucketOf = (s: number) => Math.floor((s * buckets.length) / wordShards);
    const counts = new Uint32Array(lists);
    const record = new Uint8Array(recordBytes);
    const view = new DataView(record.buffer);
    const code = new Uint32Array(words32);
    const row = new Uint8Array(rowBytes);
    let totalLength = 0;
    let done = 0;
    for await (const r of opts.source.rows()) {
      const v = unit(r.embedding, dim, r.id);
      const c = nearestSub(v);
      counts[c]!++;
      const bytes = encodeText(r);
      const pointer: TextPointer = { offset: texts.written, bytes: bytes.length, hash: sha256(bytes).slice(0, 16) };
      texts.write(bytes);
      view.setUint32(0, c, true);
      encodeSignBits(v, centre, dim, code, 0, words32);
      record.set(new Uint8Array(code.buffer), 4);
      int8Codec.encode(v, row);
      encodeRowRecord(row, pointer, record.subarray(4 + cb));
      records.write(record);
      const terms = tokenize(`${r.title}\n${r.text}`);
      totalLength += terms.length;
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) {
        if (t.includes('\t') || t.includes('\n')) continue;
        buckets[bucketOf(termShard(t, wordShards))]!.write(Buffer.from(`${t}\t${pointer.offset}\t${pointer.bytes}\t${pointer.hash}\t${f}\t${terms.length}\n`));
      }
      if (++done % 100000 === 0) log(`assigned ${done} / ${n}`);
    }
    if (done !== n) throw new Error(`the source gave ${n} passages on the first pass and ${done} on the second`);
    texts.close();
    records.close();
    for (const b of buckets) b.close();

    // Lists and rows: each block's place follows from the counts; records are scattered into place.
    // A list holds its codes, then its rows' record hashes; rows.bin holds the records in list order.
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
        writeSync(listsFd, createHash('sha256').update(rec).digest(), 0, SHORT_HASH_BYTES, base + 4 + counts[c]! * cb + i * SHORT_HASH_BYTES);
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

    // Words: one bucket in memory at a time; BM25 weights need only the global n and mean length.
    const avgLength = totalLength / n || 1;
    const shards = new Map<number, WordShard>();
    const wordBytes = new Array<number>(wordShards).fill(0);
    const wordSha = new Array<string>(wordShards).fill('');
    const words = new Appender(join(out, WORDS_FILE));
    const emit = (s: number, shard: WordShard) => {
      const bytes = encodeWordShard(shard);
      wordBytes[s] = bytes.length;
      wordSha[s] = sha256(bytes);
      words.write(bytes);
    };
    // Shards are written in shard order; empty shards are written too (the table stays dense).
    for (let b = 0; b < buckets.length; b++) {
      const postings = new Map<string, Array<[number, number, string, number, number]>>();
      for (const line of readFileSync(join(tmp, `words-${b}.tsv`), 'utf8').split('\n')) {
        if (!line) continue;
        const [t, off, len, hash, f, dl] = line.split('\t') as [string, string, string, string, string, string];
        let list = postings.get(t);
        if (!list) postings.set(t, (list = []));
        list.push([Number(off), Number(len), hash, Number(f), Number(dl)]);
      }
      shards.clear();
      for (const [t, list] of postings) {
        const weighted = list
          .map(([off, len, hash, f, dl]) => [off, len, hash, Math.round(1000 * bm25Weight(f, dl, avgLength, list.length, n))] as [number, number, string, number])
          .sort((x, y) => y[3] - x[3])
          .slice(0, POSTINGS_PER_TERM);
        const s = termShard(t, wordShards);
        let shard = shards.get(s);
        if (!shard) shards.set(s, (shard = {}));
        shard[t] = { df: list.length, p: weighted };
      }
      for (let s = Math.ceil((b * wordShards) / buckets.length); s < wordShards && bucketOf(s) === b; s++) emit(s, shards.get(s) ?? {});
    }
    words.close();

    // The word-shard table, in pages; index.bin keeps each page's hash.
    const table = new Appender(join(out, WORD_TABLE_FILE));
    const pageSha: string[] = [];
    for (let s = 0, off = 0; s < wordShards; s += wordPage) {
      const end = Math.min(wordShards, s + wordPage);
      const page = encodeWordPage(off, wordBytes.slice(s, end), wordSha.slice(s, end));
      for (let i = s; i < end; i++) off += wordBytes[i]!;
      pageSha.push(sha256(page));
      table.write(page);
    }
    table.close();

    // One centroid block per top: its sub-centroids (1-bit codes against the corpus centre, as the
    // passages in the lists) and their lists' counts and hashes; index.bin keeps each block's hash.
    const blocks = new Appender(join(out, CENTROIDS_FILE));
    const blockSha: string[] = [];
    const int8 = (f: Float32Array, k: number) => {
      const o = new Uint8Array(k * rowBytes);
      for (let c = 0; c < k; c++) int8Codec.encode(f.subarray(c * dim, (c + 1) * dim), o.subarray(c * rowBytes, (c + 1) * rowBytes));
      return o;
    };
    const signs = (f: Float32Array, k: number) => {
      const o = new Uint32Array(k * words32);
      for (let c = 0; c < k; c++) encodeSignBits(f.subarray(c * dim, (c + 1) * dim), centre, dim, o, c * words32, words32);
      return new Uint8Array(o.buffer);
    };
    for (let t = 0; t < tops; t++) {
      const c0 = firstList[t]!, k = subs[t]!;
      const block = encodeCentroidBlock(dim, listOffset[c0]!, firstRow[c0]!, signs(subModels[t]!.centroids, k), counts.subarray(c0, c0 + k), listSha.slice(c0, c0 + k));
      blockSha.push(sha256(block));
      blocks.write(block);
    }
    blocks.close();
    const index = encodeIndex(dim, centre, spread, int8(topModel.centroids, tops), { subs, sha: blockSha }, pageSha);
    writeFileSync(join(out, INDEX_FILE), index);

    const manifest: ShardedManifest = {
      format: SHARDED_FORMAT,
      version: SHARDED_VERSION,
      model: opts.model,
      dim,
      passages: n,
      documents,
      createdAt: new Date().toISOString(),
      codec: 'sign+int8',
      index: { file: INDEX_FILE, bytes: index.length, sha256: sha256(index) },
      centroids: { file: CENTROIDS_FILE, tops },
      lists: { file: LISTS_FILE, count: lists },
      rows: { file: ROWS_FILE },
      texts: { file: TEXTS_FILE, bytes: texts.written },
      words: { file: WORDS_FILE, count: wordShards, table: WORD_TABLE_FILE, page: wordPage, passages: n, avgLength, tokenizer: TOKENIZER_VERSION },
    };
    // Written last: a reader never finds a manifest naming blocks that are not there yet.
    writeFileSync(join(out, SHARDED_MANIFEST), JSON.stringify(manifest));
    const files = [SHARDED_MANIFEST, INDEX_FILE, CENTROIDS_FILE, LISTS_FILE, ROWS_FILE, TEXTS_FILE, WORD_TABLE_FILE, WORDS_FILE];
    const bytes = Object.fromEntries(files.map((f) => [f, readSize(join(out, f))]));
    return { passages: n, tops, lists, wordShards, files: files.map((f) => join(out, f)), bytes };
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
  for (let i = 0; i < count; i++) flat.set(int8Codec.decode(recs.subarray(i * rb, i * rb + int8Codec.rowBytes(dim)), dim), i * dim);
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
