// words.bin and wordtable.bin: the word index in hashed-term shards of BM25+ postings, and the
// table of the shards' sizes and hashes in pages.
import { deflateSync, inflateSync } from 'fflate';
import { fnv1aString } from '../../../core/fnv1a';
import { BM25, idf } from '../../lexical/bm25';
import { hexOf, TABLE_HASH_BYTES, writeHex } from './bytes';

/** Postings kept per term, best weight first: deeper than the in-tab fusion reads (50). */
export const POSTINGS_PER_TERM = 400;

/** Word-table pages: the last holds what is left. */
export const pageCount = (shards: number, page: number) => Math.ceil(shards / page);
export const pageEntries = (p: number, shards: number, page: number) => Math.min(page, shards - p * page);
export const pageBytes = (entries: number) => 8 + entries * (4 + TABLE_HASH_BYTES);

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
