// The sharded static corpus: what `npm run index -- --sharded` writes and the page reads
// by HTTP range requests. A few kB of manifest and one start-up block are fetched when the
// corpus opens; everything else is a block that a question fetches only when it needs it.
//
//   manifest.json   model, dims, counts, file names, and the size and SHA-256 of index.bin
//   index.bin       the start-up block: the codes' centre and spread (float32), the IVF
//                   centroids (int8 rows), and the block tables: per list its row count and
//                   hash, per word shard its size and hash (binary, so the manifest stays small)
//   lists.bin       one block per centroid: its passages' 1-bit codes (sign of v − centre, as
//                   the tab's compact index keeps them) and the hash of each one's row record
//   rows.bin        one record per passage, in list order: its int8 vector and text pointer;
//                   a question range-reads only the records of its best candidates by code
//   texts.bin       one deflated JSON passage per record, addressed by the pointers
//   words.bin       the word index in hashed-term shards: for each term, the passages with
//                   the highest BM25 weight (impact-ordered, capped), with text pointers
//
// Integrity is a chain: the manifest holds the SHA-256 of index.bin; index.bin holds the
// first 16 bytes of the SHA-256 of every list and word shard; a list holds the first 8 bytes
// of each row record's, and a row record or a posting the first 8 of its text's. A block
// that does not match is refused with a message naming it.
import { deflateSync, inflateSync } from 'fflate';
import { int8Codec } from '../../core/row-store';

export const SHARDED_MANIFEST = 'manifest.json';
export const SHARDED_FORMAT = 'selfrag-sharded';
/** 2: binary codes in the lists, int8 rows apart in rows.bin, block tables in index.bin (1: int8 rows in the lists, tables in the manifest). */
export const SHARDED_VERSION = 2;
export const INDEX_FILE = 'index.bin';
export const LISTS_FILE = 'lists.bin';
export const ROWS_FILE = 'rows.bin';
export const TEXTS_FILE = 'texts.bin';
export const WORDS_FILE = 'words.bin';
/** What a site runs to (re)build its corpus, named when a page meets one it cannot read. */
export const REBUILD_COMMAND = 'npm run index -- --sharded';

/** BM25 as the in-tab word index uses it. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.7;
/** Postings kept per term, best weight first: deeper than the in-tab fusion reads (50). */
export const POSTINGS_PER_TERM = 400;

export interface ShardedManifest {
  format: typeof SHARDED_FORMAT;
  version: typeof SHARDED_VERSION;
  /** Embedding model of the vectors; the page's query embedder must be the same. */
  model: string | null;
  dim: number;
  passages: number;
  documents: number;
  createdAt: string;
  codec: 'sign+int8';
  /** The start-up block (layout: `indexLayout`). */
  index: { file: string; bytes: number; sha256: string };
  lists: { file: string; count: number };
  rows: { file: string };
  texts: { file: string; bytes: number };
  /** `stride`: shards lie in words.bin in the order s = b, b + stride, b + 2 × stride, … for b = 0 … stride − 1 (the writer makes them a bucket at a time). */
  words: { file: string; count: number; stride: number; passages: number; avgLength: number; tokenizer: number };
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

/** Bits of a code: the dimension rounded up to 128, as the compact index's kernel wants. */
export const codeBits = (dim: number) => Math.ceil(dim / 128) * 128;
export const codeBytes = (dim: number) => codeBits(dim) / 8;
/** A row record: the int8 vector, then its text pointer. */
export const rowRecordBytes = (dim: number) => int8Codec.rowBytes(dim) + POINTER_BYTES;

export function listBlockBytes(count: number, dim: number): number {
  return 4 + count * (codeBytes(dim) + SHORT_HASH_BYTES);
}

export const hexOf = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

function writeHex(out: Uint8Array, at: number, hex: string, bytes: number): void {
  for (let i = 0; i < bytes; i++) out[at + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
}

/** u32 count; count × code (codeBytes); count × 8-byte row-record hash. Codes are `count × words` u32 words. */
export function encodeListBlock(codes: Uint8Array, rowHashes: readonly string[], dim: number): Uint8Array {
  const count = rowHashes.length;
  const out = new Uint8Array(listBlockBytes(count, dim));
  new DataView(out.buffer).setUint32(0, count, true);
  out.set(codes.subarray(0, count * codeBytes(dim)), 4);
  rowHashes.forEach((h, i) => writeHex(out, 4 + count * codeBytes(dim) + i * SHORT_HASH_BYTES, h, SHORT_HASH_BYTES));
  return out;
}

export interface ListBlock {
  count: number;
  /** Row i's code is `codes.subarray(i * codeBytes, (i + 1) * codeBytes)`. */
  codes: Uint8Array;
  /** Row i's record hash (hex). */
  rowHash(i: number): string;
}

export function decodeListBlock(bytes: Uint8Array, dim: number): ListBlock {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length >= 4 ? view.getUint32(0, true) : -1;
  if (count < 0 || bytes.length !== listBlockBytes(count, dim)) throw new Error('list block has the wrong size for its count');
  const cb = codeBytes(dim);
  const hashes = bytes.subarray(4 + count * cb);
  return { count, codes: bytes.subarray(4, 4 + count * cb), rowHash: (i) => hexOf(hashes.subarray(i * SHORT_HASH_BYTES, (i + 1) * SHORT_HASH_BYTES)) };
}

export function writePointer(view: DataView, at: number, p: TextPointer): void {
  view.setFloat64(at, p.offset, true);
  view.setUint32(at + 8, p.bytes, true);
  for (let i = 0; i < 8; i++) view.setUint8(at + 12 + i, parseInt(p.hash.slice(i * 2, i * 2 + 2), 16));
}

export function readPointer(view: DataView, at: number): TextPointer {
  let hash = '';
  for (let b = 0; b < 8; b++) hash += view.getUint8(at + 12 + b).toString(16).padStart(2, '0');
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
  return { row: bytes.subarray(0, rb), pointer: readPointer(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), rb) };
}

/** The start-up block, decoded; every other block's place and hash follows from it. */
export interface CorpusIndex {
  centre: Float32Array;
  spread: Float32Array;
  /** `lists` int8 rows. */
  centroids: Uint8Array;
  lists: { count: Uint32Array; offset: number[]; bytes: number[]; sha: string[]; firstRow: number[] };
  words: { offset: number[]; bytes: number[]; sha: string[] };
}

/** index.bin: dim × f32 centre, dim × f32 spread, lists × int8 centroid, lists × (u32 count, 16-B hash), shards × (u32 bytes, 16-B hash). */
export function indexBytes(dim: number, lists: number, shards: number): number {
  return dim * 8 + lists * (int8Codec.rowBytes(dim) + 4 + TABLE_HASH_BYTES) + shards * (4 + TABLE_HASH_BYTES);
}

export function encodeIndex(dim: number, centre: Float32Array, spread: Float32Array, centroids: Uint8Array, lists: { count: ArrayLike<number>; sha: readonly string[] }, words: { bytes: readonly number[]; sha: readonly string[] }): Uint8Array {
  const L = lists.sha.length, W = words.sha.length;
  const out = new Uint8Array(indexBytes(dim, L, W));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const v of [centre, spread]) for (let j = 0; j < dim; j++, at += 4) view.setFloat32(at, v[j]!, true);
  out.set(centroids.subarray(0, L * int8Codec.rowBytes(dim)), at);
  at += L * int8Codec.rowBytes(dim);
  for (let c = 0; c < L; c++, at += 4 + TABLE_HASH_BYTES) {
    view.setUint32(at, lists.count[c]!, true);
    writeHex(out, at + 4, lists.sha[c]!, TABLE_HASH_BYTES);
  }
  for (let s = 0; s < W; s++, at += 4 + TABLE_HASH_BYTES) {
    view.setUint32(at, words.bytes[s]!, true);
    writeHex(out, at + 4, words.sha[s]!, TABLE_HASH_BYTES);
  }
  return out;
}

export function decodeIndex(bytes: Uint8Array, m: ShardedManifest): CorpusIndex {
  const { dim } = m, L = m.lists.count, W = m.words.count;
  if (bytes.length !== indexBytes(dim, L, W)) throw new Error(`${m.index.file} has the wrong size for ${L} lists and ${W} word shards`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const floats = (at: number) => Float32Array.from({ length: dim }, (_, j) => view.getFloat32(at + j * 4, true));
  const centre = floats(0), spread = floats(dim * 4);
  let at = dim * 8;
  const centroids = bytes.subarray(at, at + L * int8Codec.rowBytes(dim));
  at += centroids.length;
  const count = new Uint32Array(L);
  const lists: CorpusIndex['lists'] = { count, offset: [], bytes: [], sha: [], firstRow: [] };
  for (let c = 0, off = 0, row = 0; c < L; c++, at += 4 + TABLE_HASH_BYTES) {
    count[c] = view.getUint32(at, true);
    lists.offset.push(off);
    lists.bytes.push(listBlockBytes(count[c]!, dim));
    lists.sha.push(hexOf(bytes.subarray(at + 4, at + 4 + TABLE_HASH_BYTES)));
    lists.firstRow.push(row);
    off += lists.bytes[c]!;
    row += count[c]!;
  }
  const words: CorpusIndex['words'] = { offset: new Array<number>(W).fill(0), bytes: [], sha: [] };
  for (let s = 0; s < W; s++, at += 4 + TABLE_HASH_BYTES) {
    words.bytes.push(view.getUint32(at, true));
    words.sha.push(hexOf(bytes.subarray(at + 4, at + 4 + TABLE_HASH_BYTES)));
  }
  const stride = Math.max(1, Math.min(m.words.stride, W));
  for (let b = 0, off = 0; b < stride; b++) {
    for (let s = b; s < W; s += stride) {
      words.offset[s] = off;
      off += words.bytes[s]!;
    }
  }
  return { centre, spread, centroids, lists, words };
}

/** One passage as stored: what the page needs to show and cite it. */
export interface TextRecord {
  id: string;
  docId: string;
  title: string;
  text: string;
  index: number;
}

export function encodeText(p: TextRecord): Uint8Array {
  return deflateSync(new TextEncoder().encode(JSON.stringify([p.id, p.docId, p.title, p.text, p.index])), { level: 9 });
}

export function decodeText(bytes: Uint8Array): TextRecord {
  const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflateSync(bytes)));
  if (!Array.isArray(v) || v.length !== 5 || typeof v[0] !== 'string' || typeof v[3] !== 'string') throw new Error('passage record is malformed');
  return { id: v[0], docId: String(v[1]), title: String(v[2]), text: v[3], index: Number(v[4]) };
}

/** A word shard: term → its document frequency and postings [text offset, text bytes, hash, BM25 weight × 1000], best weight first. */
export type WordShard = Record<string, { df: number; p: Array<[number, number, string, number]> }>;

/** BM25 inverse document frequency, as MiniSearch computes it. */
export function idf(df: number, passages: number): number {
  return Math.log(1 + (passages - df + 0.5) / (df + 0.5));
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
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

export function bm25Weight(tf: number, length: number, avgLength: number, df: number, passages: number): number {
  return (idf(df, passages) * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength));
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A corpus this page cannot read because it was written in another format version. */
export class FormatVersionError extends Error {
  constructor(readonly found: unknown) {
    super(
      `the site's sharded corpus is format version ${String(found)}, and this page reads version ${SHARDED_VERSION}: ` +
        `the site must rebuild it with \`${REBUILD_COMMAND}\` (or \`npm run index -- --parquet\`); until then its passages are left out`,
    );
  }
}

export function checkManifest(m: unknown): ShardedManifest {
  const v = m as Partial<ShardedManifest> | null;
  if (!v || v.format !== SHARDED_FORMAT) throw new Error(`not a sharded corpus manifest (format is not "${SHARDED_FORMAT}")`);
  if (v.version !== SHARDED_VERSION) throw new FormatVersionError(v.version);
  if (!v.dim || !v.index || !v.lists || !v.rows || !v.words || !v.texts) throw new Error('sharded corpus manifest is missing fields');
  if (!(v.lists.count >= 1) || !(v.words.count >= 1)) throw new Error('sharded corpus manifest: no lists or no word shards');
  return v as ShardedManifest;
}
