// The sharded static corpus: what `npm run index -- --sharded` writes and the page reads
// by HTTP range requests. One small manifest and the coarse structure are fetched at
// start-up; everything else is a block that a question fetches only when it needs it.
//
//   manifest.json   model, dims, counts, and for every block its offset, size and SHA-256
//   centroids.bin   the IVF centroids (spherical k-means on a sample), int8 rows
//   lists.bin       one block per centroid: its passages' text pointers and int8 vectors
//   texts.bin       one deflated JSON passage per record, addressed by the pointers
//   words.bin       the word index in hashed-term shards: for each term, the passages with
//                   the highest BM25 weight (impact-ordered, capped), with text pointers
//
// Integrity is a chain: the manifest holds the SHA-256 of every list, word shard and the
// centroids; a list or word shard holds the first 8 bytes of the SHA-256 of each text it
// points to. A block that does not match is refused with a message naming it.
import { deflateSync, inflateSync } from 'fflate';
import { int8Codec } from '../../core/row-store';

export const SHARDED_MANIFEST = 'manifest.json';
export const SHARDED_FORMAT = 'selfrag-sharded';
export const SHARDED_VERSION = 1;
export const CENTROIDS_FILE = 'centroids.bin';
export const LISTS_FILE = 'lists.bin';
export const TEXTS_FILE = 'texts.bin';
export const WORDS_FILE = 'words.bin';

/** BM25 as the in-tab word index uses it. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.7;
/** Postings kept per term, best weight first: deeper than the in-tab fusion reads (50). */
export const POSTINGS_PER_TERM = 400;

export interface BlockTable {
  file: string;
  offset: number[];
  bytes: number[];
  sha256: string[];
}

export interface ShardedManifest {
  format: typeof SHARDED_FORMAT;
  version: typeof SHARDED_VERSION;
  /** Embedding model of the vectors; the page's query embedder must be the same. */
  model: string | null;
  dim: number;
  passages: number;
  documents: number;
  createdAt: string;
  codec: 'int8';
  centroids: { file: string; offset: number; bytes: number; sha256: string; count: number };
  lists: BlockTable & { count: number[] };
  texts: { file: string; bytes: number };
  words: BlockTable & { passages: number; avgLength: number; tokenizer: number };
}

/** Where one passage's text record lives, and the first 8 bytes of its SHA-256 (hex). */
export interface TextPointer {
  offset: number;
  bytes: number;
  hash: string;
}

export const pointerKey = (p: TextPointer) => `${p.offset}`;

const POINTER_BYTES = 20;

export function listBlockBytes(count: number, dim: number): number {
  return 4 + count * (POINTER_BYTES + int8Codec.rowBytes(dim));
}

/** u32 count; count × (f64 text offset, u32 text bytes, 8 hash bytes); count × int8 rows. */
export function encodeListBlock(pointers: readonly TextPointer[], rows: Uint8Array, dim: number): Uint8Array {
  const out = new Uint8Array(listBlockBytes(pointers.length, dim));
  const view = new DataView(out.buffer);
  view.setUint32(0, pointers.length, true);
  pointers.forEach((p, i) => writePointer(view, 4 + i * POINTER_BYTES, p));
  out.set(rows.subarray(0, pointers.length * int8Codec.rowBytes(dim)), 4 + pointers.length * POINTER_BYTES);
  return out;
}

export function writePointer(view: DataView, at: number, p: TextPointer): void {
  view.setFloat64(at, p.offset, true);
  view.setUint32(at + 8, p.bytes, true);
  for (let i = 0; i < 8; i++) view.setUint8(at + 12 + i, parseInt(p.hash.slice(i * 2, i * 2 + 2), 16));
}

export interface ListBlock {
  pointers: TextPointer[];
  /** Row i is `rows.subarray(i * rowBytes, (i + 1) * rowBytes)`. */
  rows: Uint8Array;
  rowBytes: number;
}

export function decodeListBlock(bytes: Uint8Array, dim: number): ListBlock {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length >= 4 ? view.getUint32(0, true) : -1;
  if (count < 0 || bytes.length !== listBlockBytes(count, dim)) throw new Error('list block has the wrong size for its count');
  const pointers: TextPointer[] = [];
  for (let i = 0; i < count; i++) {
    const at = 4 + i * POINTER_BYTES;
    let hash = '';
    for (let b = 0; b < 8; b++) hash += view.getUint8(at + 12 + b).toString(16).padStart(2, '0');
    pointers.push({ offset: view.getFloat64(at, true), bytes: view.getUint32(at + 8, true), hash });
  }
  return { pointers, rows: bytes.subarray(4 + count * POINTER_BYTES), rowBytes: int8Codec.rowBytes(dim) };
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

export function checkManifest(m: unknown): ShardedManifest {
  const v = m as Partial<ShardedManifest> | null;
  if (!v || v.format !== SHARDED_FORMAT) throw new Error(`not a sharded corpus manifest (format is not "${SHARDED_FORMAT}")`);
  if (v.version !== SHARDED_VERSION) throw new Error(`sharded corpus version ${String(v.version)} is not supported (this page reads version ${SHARDED_VERSION})`);
  if (!v.dim || !v.centroids || !v.lists || !v.words || !v.texts) throw new Error('sharded corpus manifest is missing fields');
  const n = v.lists.offset.length;
  if (v.lists.bytes.length !== n || v.lists.sha256.length !== n || v.lists.count.length !== n || v.centroids.count !== n) throw new Error('sharded corpus manifest: list table lengths disagree');
  return v as ShardedManifest;
}
