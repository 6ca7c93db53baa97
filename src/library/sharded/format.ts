// The sharded static corpus: what `npm run index -- --sharded` writes and the page reads
// by HTTP range requests. A few kB of manifest and one start-up block are fetched when the
// corpus opens; everything else is a block that a question fetches only when it needs it.
//
//   manifest.json   model, dims, counts, file names, and the size and SHA-256 of index.bin
//   index.bin       the start-up block: the codes' centre (float32; format 4–5 also their
//                   spread), the T top centroids (int8 rows) with each one's sub-centroid count
//                   and block hash, and the hash of each word-table page. It grows with T and
//                   n / (25 × page), not with the lists or the shards.
//   centroids.bin   one block per top centroid: its sub-centroids' codes (format 6: RaBitQ,
//                   src/vector/rabitq.ts, with a factor each; 4–5: signs of c − centre), and per
//                   sub-centroid (= list) its row count and hash; a question reads the blocks of
//                   the tops it probes
//   lists.bin       one block per sub-centroid: its passages' codes (as its sub-centroids'),
//                   their factors (format 6) and the hash of each row record
//   rows.bin        one record per passage, in list order: its int8 vector and text pointer;
//                   a question range-reads only the records of its best candidates by code
//   texts.bin       one deflated JSON passage per record, addressed by the pointers
//   wordtable.bin   the word-shard table in pages: each shard's size and hash
//   words.bin       the word index in hashed-term shards: for each term, the passages with
//                   the highest BM25+ term score (lexical/bm25.ts; impact-ordered, capped),
//                   with text pointers
//
// Integrity is a chain: the manifest holds the SHA-256 of index.bin; index.bin holds the
// first 16 bytes of the SHA-256 of every centroid block and word-table page; a centroid block
// those of its lists, a page those of its word shards; a list holds the first 8 bytes of each
// row record's, and a row record or a posting the first 8 of its text's. A block that does not
// match is refused with a message naming it.
import type { PassageSource } from '../../core/source-location';
import { deflateSync, inflateSync } from 'fflate';
import { fnv1aString } from '../../core/fnv1a';
import { int8Codec } from '../../vector/row-store';
import { BM25, idf } from '../lexical/bm25';
import type { ProbeCalibration } from './probe';

export const SHARDED_MANIFEST = 'manifest.json';
export const SHARDED_FORMAT = 'selfrag-sharded';
/**
 * 6: RaBitQ codes (src/vector/rabitq.ts: the residual from the centre, rotated, `codes.bits` bits a
 * dimension, and a float32 factor each) for passages and sub-centroids, where 4 and 5 kept signs
 * ranked by an asymmetric score over the spread (no spread in index.bin now). The rest as in 5.
 * 5: a posting's weight is its term's BM25+ score (lexical/bm25.ts, the in-tab index's), length
 * in distinct terms; version 4's was plain BM25 with lengths in all terms, times ln 4, and is
 * still read (`postingScore`), on nearly the same scale. The other blocks are as in 4.
 * 4: sub-centroids in the centroid blocks as 1-bit codes (68 B an entry at 384-d, was 408).
 * (3: int8 sub-centroids; two-level coarse structure (top centroids at start-up, sub-centroid
 * blocks by range) and a paged word-shard table. 2: all centroids and block tables in
 * index.bin; 1: int8 rows in the lists, tables in the manifest.)
 */
export const SHARDED_VERSION = 6;
/** The version a corpus of sign codes is written in (`codes: { kind: 'sign' }`, the benches' baseline). */
export const SIGN_CODES_VERSION = 5;
/** Versions this page reads: 4 and 5 with sign codes (their word weights' scale differs), 6 with RaBitQ codes. */
export const READABLE_VERSIONS: readonly number[] = [4, 5, 6];
export const INDEX_FILE = 'index.bin';
export const CENTROIDS_FILE = 'centroids.bin';
export const WORD_TABLE_FILE = 'wordtable.bin';
export const LISTS_FILE = 'lists.bin';
export const ROWS_FILE = 'rows.bin';
export const TEXTS_FILE = 'texts.bin';
export const WORDS_FILE = 'words.bin';
/** What a site runs to (re)build its corpus, named when a page meets one it cannot read. */
export const REBUILD_COMMAND = 'npm run index -- --sharded';

/** Postings kept per term, best weight first: deeper than the in-tab fusion reads (50). */
export const POSTINGS_PER_TERM = 400;

export interface ShardedManifest {
  format: typeof SHARDED_FORMAT;
  /** SHARDED_VERSION when written now; any of READABLE_VERSIONS is read. */
  version: number;
  /** Embedding model of the vectors; the page's query embedder must be the same. */
  model: string | null;
  dim: number;
  passages: number;
  documents: number;
  createdAt: string;
  codec: 'sign+int8' | 'rabitq+int8';
  /** Format 6: how passages (`bits` a dimension) and sub-centroids (`subBits`) are coded, and the rotation's seed. */
  codes?: { kind: 'rabitq'; bits: number; subBits: number; seed: number };
  /** The start-up block (layout: `encodeIndex`). */
  index: { file: string; bytes: number; sha256: string };
  /** Sub-centroid blocks, one per top centroid (layout: `encodeCentroidBlock`). */
  centroids: { file: string; tops: number };
  lists: { file: string; count: number };
  rows: { file: string };
  texts: { file: string; bytes: number };
  /** Shards lie in words.bin in shard order; their sizes and hashes are in `table`, in pages of `page` shards (layout: `encodeWordPage`). */
  words: {
    file: string;
    count: number;
    table: string;
    page: number;
    passages: number;
    avgLength: number;
    tokenizer: number;
  };
  /** The probe depth the writer measured on the corpus's own passages (optional: older builds have none, and the reader's defaults apply). */
  probe?: ProbeCalibration;
}

/** Where one passage's text record lives, and the first 8 bytes of its SHA-256 (hex). */
export interface TextPointer {
  offset: number;
  bytes: number;
  hash: string;
}

export const pointerKey = (p: TextPointer) => `${p.offset}`;

const POINTER_BYTES = 20;
/** Bytes of SHA-256 kept for a row record (in its list) and for a text (in its pointer). */
export const SHORT_HASH_BYTES = 8;
/** Bytes of SHA-256 kept for a list or a word shard (in index.bin). */
export const TABLE_HASH_BYTES = 16;

/** Bits of a sign code (format 4–5), or of one RaBitQ bit plane: the dimension rounded up to 128, as the SIMD kernels want. */
export const codeBits = (dim: number) => Math.ceil(dim / 128) * 128;
export const codeBytes = (dim: number) => codeBits(dim) / 8;
/** A row record: the int8 vector, then its text pointer. */
export const rowRecordBytes = (dim: number) => int8Codec.rowBytes(dim) + POINTER_BYTES;

/** How one kind of entry (a passage in a list, a sub-centroid in its block) is coded. */
export interface CodeShape {
  /** Bits a dimension: 1 for signs. */
  bits: number;
  /** Bytes of one code. */
  bytes: number;
  /** Whether a float32 factor follows the codes (RaBitQ); sign codes have none. */
  factors: boolean;
}

export const signShape = (dim: number): CodeShape => ({ bits: 1, bytes: codeBytes(dim), factors: false });
export const rabitqShape = (dim: number, bits: number): CodeShape => ({
  bits,
  bytes: bits * codeBytes(dim),
  factors: true,
});

/** The shapes of a corpus's list entries and sub-centroids, from its manifest. */
export function codeShapes(m: Pick<ShardedManifest, 'dim' | 'codes' | 'version'>): {
  list: CodeShape;
  sub: CodeShape;
} {
  if (m.version < 6 || !m.codes) return { list: signShape(m.dim), sub: signShape(m.dim) };
  return { list: rabitqShape(m.dim, m.codes.bits), sub: rabitqShape(m.dim, m.codes.subBits) };
}

const entryBytes = (shape: CodeShape) => shape.bytes + (shape.factors ? 4 : 0);

export function listBlockBytes(count: number, shape: CodeShape): number {
  return 4 + count * (entryBytes(shape) + SHORT_HASH_BYTES);
}

export const hexOf = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

function writeHex(out: Uint8Array, at: number, hex: string, bytes: number): void {
  for (let i = 0; i < bytes; i++) out[at + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
}

function writeFactors(out: Uint8Array, at: number, factors: ArrayLike<number>, count: number): void {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < count; i++) view.setFloat32(at + i * 4, factors[i]!, true);
}

function readFactors(bytes: Uint8Array, at: number, count: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: count }, (_, i) => view.getFloat32(at + i * 4, true));
}

/** u32 count; count × code (shape.bytes); count × f32 factor (RaBitQ only); count × 8-byte row-record hash. */
export function encodeListBlock(
  codes: Uint8Array,
  factors: ArrayLike<number> | null,
  rowHashes: readonly string[],
  shape: CodeShape,
): Uint8Array {
  const count = rowHashes.length;
  const out = new Uint8Array(listBlockBytes(count, shape));
  new DataView(out.buffer).setUint32(0, count, true);
  out.set(codes.subarray(0, count * shape.bytes), 4);
  let at = 4 + count * shape.bytes;
  if (shape.factors) {
    writeFactors(out, at, factors!, count);
    at += count * 4;
  }
  rowHashes.forEach((h, i) => writeHex(out, at + i * SHORT_HASH_BYTES, h, SHORT_HASH_BYTES));
  return out;
}

export interface ListBlock {
  count: number;
  /** Row i's code is `codes.subarray(i * shape.bytes, (i + 1) * shape.bytes)`. */
  codes: Uint8Array;
  /** Row i's RaBitQ factor (format 6); null for sign codes. */
  factors: Float32Array | null;
  /** Row i's record hash (hex). */
  rowHash(i: number): string;
}

export function decodeListBlock(bytes: Uint8Array, shape: CodeShape): ListBlock {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length >= 4 ? view.getUint32(0, true) : -1;
  if (count < 0 || bytes.length !== listBlockBytes(count, shape))
    throw new Error('list block has the wrong size for its count');
  const codesEnd = 4 + count * shape.bytes;
  const factors = shape.factors ? readFactors(bytes, codesEnd, count) : null;
  const hashes = bytes.subarray(codesEnd + (shape.factors ? count * 4 : 0));
  return {
    count,
    codes: bytes.subarray(4, codesEnd),
    factors,
    rowHash: (i) => hexOf(hashes.subarray(i * SHORT_HASH_BYTES, (i + 1) * SHORT_HASH_BYTES)),
  };
}

export function writePointer(view: DataView, at: number, p: TextPointer): void {
  view.setFloat64(at, p.offset, true);
  view.setUint32(at + 8, p.bytes, true);
  for (let i = 0; i < 8; i++) view.setUint8(at + 12 + i, parseInt(p.hash.slice(i * 2, i * 2 + 2), 16));
}

export function readPointer(view: DataView, at: number): TextPointer {
  let hash = '';
  for (let b = 0; b < 8; b++)
    hash += view
      .getUint8(at + 12 + b)
      .toString(16)
      .padStart(2, '0');
  return { offset: view.getFloat64(at, true), bytes: view.getUint32(at + 8, true), hash };
}

/** A row record: the int8 row, then the text pointer. */
export function encodeRowRecord(row: Uint8Array, p: TextPointer, out: Uint8Array): Uint8Array {
  out.set(row, 0);
  writePointer(new DataView(out.buffer, out.byteOffset, out.byteLength), row.length, p);
  return out;
}

export function decodeRowRecord(bytes: Uint8Array, dim: number): { row: Uint8Array; pointer: TextPointer } {
  const rb = int8Codec.rowBytes(dim);
  return {
    row: bytes.subarray(0, rb),
    pointer: readPointer(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), rb),
  };
}

/** The start-up block, decoded; every other block's place and hash follows from it and the blocks it names. */
export interface CorpusIndex {
  centre: Float32Array;
  /** Sign codes' spread (format 4–5); null in format 6. */
  spread: Float32Array | null;
  /** The top level: `tops` int8 centroids, each owning a block of sub-centroids in centroids.bin. */
  tops: {
    centroids: Uint8Array;
    subs: number[];
    firstList: number[];
    offset: number[];
    bytes: number[];
    sha: string[];
  };
  /** The word-shard table, in pages of `words.page` entries in wordtable.bin. */
  pages: { offset: number[]; bytes: number[]; sha: string[] };
}

/** index.bin: dim × f32 centre, (format 4–5) dim × f32 spread, tops × int8 centroid, tops × (u32 sub-centroids, 16-B hash of their block), pages × 16-B page hash. */
export function indexBytes(dim: number, tops: number, pages: number, withSpread: boolean): number {
  return (
    dim * (withSpread ? 8 : 4) + tops * (int8Codec.rowBytes(dim) + 4 + TABLE_HASH_BYTES) + pages * TABLE_HASH_BYTES
  );
}

export function encodeIndex(
  dim: number,
  centre: Float32Array,
  spread: Float32Array | null,
  topCentroids: Uint8Array,
  tops: { subs: readonly number[]; sha: readonly string[] },
  pageSha: readonly string[],
): Uint8Array {
  const T = tops.sha.length;
  const out = new Uint8Array(indexBytes(dim, T, pageSha.length, spread !== null));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const v of spread ? [centre, spread] : [centre])
    for (let j = 0; j < dim; j++, at += 4) view.setFloat32(at, v[j]!, true);
  out.set(topCentroids.subarray(0, T * int8Codec.rowBytes(dim)), at);
  at += T * int8Codec.rowBytes(dim);
  for (let t = 0; t < T; t++, at += 4 + TABLE_HASH_BYTES) {
    view.setUint32(at, tops.subs[t]!, true);
    writeHex(out, at + 4, tops.sha[t]!, TABLE_HASH_BYTES);
  }
  for (const sha of pageSha) {
    writeHex(out, at, sha, TABLE_HASH_BYTES);
    at += TABLE_HASH_BYTES;
  }
  return out;
}

/** Word-table pages: the last holds what is left. */
export const pageCount = (shards: number, page: number) => Math.ceil(shards / page);
const pageEntries = (p: number, shards: number, page: number) => Math.min(page, shards - p * page);
export const pageBytes = (entries: number) => 8 + entries * (4 + TABLE_HASH_BYTES);

export function decodeIndex(bytes: Uint8Array, m: ShardedManifest): CorpusIndex {
  const { dim } = m,
    T = m.centroids.tops,
    W = m.words.count,
    P = pageCount(W, m.words.page);
  const withSpread = m.version < 6;
  if (bytes.length !== indexBytes(dim, T, P, withSpread))
    throw new Error(`${m.index.file} has the wrong size for ${T} top centroids and ${P} word-table pages`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const floats = (at: number) => Float32Array.from({ length: dim }, (_, j) => view.getFloat32(at + j * 4, true));
  const centre = floats(0),
    spread = withSpread ? floats(dim * 4) : null;
  let at = dim * (withSpread ? 8 : 4);
  const shapes = codeShapes(m);
  const rb = int8Codec.rowBytes(dim);
  const tops: CorpusIndex['tops'] = {
    centroids: bytes.subarray(at, at + T * rb),
    subs: [],
    firstList: [],
    offset: [],
    bytes: [],
    sha: [],
  };
  at += T * rb;
  for (let t = 0, off = 0, list = 0; t < T; t++, at += 4 + TABLE_HASH_BYTES) {
    const subs = view.getUint32(at, true);
    tops.subs.push(subs);
    tops.firstList.push(list);
    tops.offset.push(off);
    tops.bytes.push(centroidBlockBytes(subs, shapes.sub));
    tops.sha.push(hexOf(bytes.subarray(at + 4, at + 4 + TABLE_HASH_BYTES)));
    off += tops.bytes[t]!;
    list += subs;
  }
  const pages: CorpusIndex['pages'] = { offset: [], bytes: [], sha: [] };
  for (let p = 0, off = 0; p < P; p++, at += TABLE_HASH_BYTES) {
    pages.offset.push(off);
    pages.bytes.push(pageBytes(pageEntries(p, W, m.words.page)));
    pages.sha.push(hexOf(bytes.subarray(at, at + TABLE_HASH_BYTES)));
    off += pages.bytes[p]!;
  }
  return { centre, spread, tops, pages };
}

/**
 * A block of centroids.bin: f64 lists.bin offset and f64 rows.bin row of its first list,
 * subs × sub-centroid code (the shape's bytes), subs × f32 factor (RaBitQ only),
 * subs × (u32 count, 16-B list hash).
 */
export function centroidBlockBytes(subs: number, shape: CodeShape): number {
  return 16 + subs * (entryBytes(shape) + 4 + TABLE_HASH_BYTES);
}

/** `codes`: the sub-centroids' codes, `subs × shape.bytes` bytes; `factors` theirs (RaBitQ). */
export function encodeCentroidBlock(
  shape: CodeShape,
  listOffset: number,
  firstRow: number,
  codes: Uint8Array,
  factors: ArrayLike<number> | null,
  counts: ArrayLike<number>,
  sha: readonly string[],
): Uint8Array {
  const S = sha.length;
  const out = new Uint8Array(centroidBlockBytes(S, shape));
  const view = new DataView(out.buffer);
  view.setFloat64(0, listOffset, true);
  view.setFloat64(8, firstRow, true);
  out.set(codes.subarray(0, S * shape.bytes), 16);
  let at = 16 + S * shape.bytes;
  if (shape.factors) {
    writeFactors(out, at, factors!, S);
    at += S * 4;
  }
  for (let j = 0; j < S; j++, at += 4 + TABLE_HASH_BYTES) {
    view.setUint32(at, counts[j]!, true);
    writeHex(out, at + 4, sha[j]!, TABLE_HASH_BYTES);
  }
  return out;
}

/** Where one list lies and what it must hash to. */
export interface ListRef {
  /** Its number: top-major, the first of top t is `tops.firstList[t]`. */
  c: number;
  count: number;
  offset: number;
  bytes: number;
  sha: string;
  firstRow: number;
}

export interface CentroidBlock {
  /** Sub-centroid j's code is `codes.subarray(j * shape.bytes, (j + 1) * shape.bytes)`. */
  codes: Uint8Array;
  /** Sub-centroid j's RaBitQ factor (format 6); null for sign codes. */
  factors: Float32Array | null;
  lists: ListRef[];
}

export function decodeCentroidBlock(
  bytes: Uint8Array,
  subs: number,
  firstList: number,
  shapes: { list: CodeShape; sub: CodeShape },
): CentroidBlock {
  const shape = shapes.sub;
  if (bytes.length !== centroidBlockBytes(subs, shape))
    throw new Error('centroid block has the wrong size for its count');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = view.getFloat64(0, true),
    row = view.getFloat64(8, true);
  const codesEnd = 16 + subs * shape.bytes;
  const factors = shape.factors ? readFactors(bytes, codesEnd, subs) : null;
  const lists: ListRef[] = [];
  for (let j = 0, at = codesEnd + (shape.factors ? subs * 4 : 0); j < subs; j++, at += 4 + TABLE_HASH_BYTES) {
    const count = view.getUint32(at, true);
    const b = listBlockBytes(count, shapes.list);
    lists.push({
      c: firstList + j,
      count,
      offset,
      bytes: b,
      sha: hexOf(bytes.subarray(at + 4, at + 4 + TABLE_HASH_BYTES)),
      firstRow: row,
    });
    offset += b;
    row += count;
  }
  return { codes: bytes.subarray(16, codesEnd), factors, lists };
}

/** A page of wordtable.bin: f64 words.bin offset of its first shard, then per shard u32 bytes and 16-B hash (shards lie in order). */
export function encodeWordPage(firstOffset: number, bytes: readonly number[], sha: readonly string[]): Uint8Array {
  const out = new Uint8Array(pageBytes(bytes.length));
  const view = new DataView(out.buffer);
  view.setFloat64(0, firstOffset, true);
  for (let i = 0, at = 8; i < bytes.length; i++, at += 4 + TABLE_HASH_BYTES) {
    view.setUint32(at, bytes[i]!, true);
    writeHex(out, at + 4, sha[i]!, TABLE_HASH_BYTES);
  }
  return out;
}

/** Where word shard `s` lies, from its page. */
export function shardInPage(
  page: Uint8Array,
  s: number,
  pageSize: number,
): { offset: number; bytes: number; sha: string } {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  const i = s % pageSize;
  if (page.length < pageBytes(i + 1)) throw new Error('word-table page is too short');
  let offset = view.getFloat64(0, true);
  for (let e = 0; e < i; e++) offset += view.getUint32(8 + e * (4 + TABLE_HASH_BYTES), true);
  const at = 8 + i * (4 + TABLE_HASH_BYTES);
  return { offset, bytes: view.getUint32(at, true), sha: hexOf(page.subarray(at + 4, at + 4 + TABLE_HASH_BYTES)) };
}

/** One passage as stored: what the page needs to show and cite it. */
export interface TextRecord {
  id: string;
  docId: string;
  title: string;
  text: string;
  index: number;
  /** Where it stands in its document, and the original's address on the site, where the writer knew them (a sixth element, written only then). */
  source?: PassageSource;
}

export function encodeText(p: TextRecord): Uint8Array {
  const fields: unknown[] = [p.id, p.docId, p.title, p.text, p.index];
  if (p.source && Object.keys(p.source).length > 0) fields.push(p.source);
  return deflateSync(new TextEncoder().encode(JSON.stringify(fields)), { level: 9 });
}

export function decodeText(bytes: Uint8Array): TextRecord {
  const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflateSync(bytes)));
  if (!Array.isArray(v) || (v.length !== 5 && v.length !== 6) || typeof v[0] !== 'string' || typeof v[3] !== 'string')
    throw new Error('passage record is malformed');
  const source = v.length === 6 ? checkedSource(v[5]) : undefined;
  return {
    id: v[0],
    docId: String(v[1]),
    title: String(v[2]),
    text: v[3],
    index: Number(v[4]),
    ...(source ? { source } : {}),
  };
}

/** A corpus is fetched data: only well-formed parts of a place are kept, anything else is dropped. */
function checkedSource(raw: unknown): PassageSource | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const page = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : undefined);
  const out: PassageSource = {};
  const first = page(r.page);
  const last = page(r.pageEnd);
  if (first !== undefined) out.page = first;
  if (first !== undefined && last !== undefined && last > first) out.pageEnd = last;
  const label = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 32 ? v : undefined);
  if (out.page !== undefined && label(r.pageLabel) !== undefined) out.pageLabel = label(r.pageLabel)!;
  if (out.pageEnd !== undefined && label(r.pageEndLabel) !== undefined) out.pageEndLabel = label(r.pageEndLabel)!;
  if (Array.isArray(r.headings) && r.headings.every((h) => typeof h === 'string'))
    out.headings = (r.headings as string[]).slice(0, 12).map((h) => h.slice(0, 200));
  if (r.scanned === true) out.scanned = true;
  if (typeof r.url === 'string' && r.url.length < 2000 && !/^[a-z][a-z0-9+.-]*:/i.test(r.url.replace(/^https?:/i, '')))
    out.url = r.url;
  return out;
}

/** A word shard: term → its document frequency and postings [text offset, text bytes, hash, weight × 1000], best weight first. */
export type WordShard = Record<string, { df: number; p: Array<[number, number, string, number]> }>;

/** A posting's stored weight: its term's BM25+ score (bm25.ts `termScore`) to 1/1000. */
export const postingWeight = (score: number) => Math.round(1000 * score);

/**
 * A posting's term score on the in-tab index's scale, from its stored weight. Version 4 wrote
 * plain BM25 times a stray ln 4 (its term part was computed with the idf of one term in one
 * passage): dividing it out and adding δ·idf gives BM25+, with that version's lengths.
 */
export function postingScore(weight: number, df: number, passages: number, version: number): number {
  if (version >= 5) return weight / 1000;
  return weight / 1000 / Math.log(4) + BM25.delta * idf(df, passages);
}

export function encodeWordShard(shard: WordShard): Uint8Array {
  return deflateSync(new TextEncoder().encode(JSON.stringify(shard)), { level: 9 });
}

export function decodeWordShard(bytes: Uint8Array): WordShard {
  const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflateSync(bytes)));
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('word shard is malformed');
  return v as WordShard;
}

/** Which word shard holds a term: FNV-1a of its UTF-16 code units, modulo the shard count. */
export function termShard(term: string, shards: number): number {
  return (fnv1aString(term) >>> 0) % shards;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A corpus this page cannot read because it was written in another format version. */
export class FormatVersionError extends Error {
  constructor(readonly found: unknown) {
    super(
      `the site's sharded corpus is format version ${String(found)}, and this page reads version ${READABLE_VERSIONS.slice(0, -1).join(', ')} or ${READABLE_VERSIONS.at(-1)}: ` +
        `the site must rebuild it with \`${REBUILD_COMMAND}\` (or \`npm run index -- --parquet\`); until then its passages are left out`,
    );
  }
}

export function checkManifest(m: unknown): ShardedManifest {
  const v = m as Partial<ShardedManifest> | null;
  if (!v || v.format !== SHARDED_FORMAT)
    throw new Error(`not a sharded corpus manifest (format is not "${SHARDED_FORMAT}")`);
  if (!READABLE_VERSIONS.includes(v.version as number)) throw new FormatVersionError(v.version);
  if (!v.dim || !v.index || !v.lists || !v.rows || !v.words || !v.texts)
    throw new Error('sharded corpus manifest is missing fields');
  if (!v.centroids || !(v.centroids.tops >= 1) || !(v.words.page >= 1))
    throw new Error('sharded corpus manifest is missing fields');
  if (!(v.lists.count >= 1) || !(v.words.count >= 1))
    throw new Error('sharded corpus manifest: no lists or no word shards');
  const c = v.codes;
  const bits = (x: unknown) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= 8;
  if (
    (v.version as number) >= 6 &&
    !(c && c.kind === 'rabitq' && bits(c.bits) && bits(c.subBits) && Number.isInteger(c.seed))
  )
    throw new Error('sharded corpus manifest: format 6 without a valid `codes` (kind, bits, subBits, seed)');
  // A depth that is not whole numbers in range is dropped, not trusted: the defaults still answer.
  const p = v.probe;
  const whole = (x: unknown, max: number) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= max;
  if (
    p !== undefined &&
    !(p && whole(p.ntop, v.centroids.tops) && whole(p.nprobe, v.lists.count) && whole(p.rescore, 100000))
  )
    delete v.probe;
  return v as ShardedManifest;
}
