// Writes words.bin and wordtable.bin from pass 2's word buckets, one bucket in memory at a time.
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { idf, tfPart, withIdf } from '../../src/library/lexical/bm25';
import { WORD_TABLE_FILE, WORDS_FILE } from '../../src/library/sharded/format/manifest';
import {
  encodeWordPage,
  encodeWordShard,
  POSTINGS_PER_TERM,
  postingWeight,
  termShard,
  type WordShard,
} from '../../src/library/sharded/format/words';
import type { Assigned } from './assign';
import { sha256 } from './options';
import { Appender } from './spill';

/**
 * Words: one bucket in memory at a time; BM25 weights need only the global n and mean length.
 * The word-shard table is written a page at a time as the shards come, in order; index.bin
 * keeps each page's hash (nothing per shard stays in memory). Returns the pages' hashes.
 */
export function writeWords(out: string, n: number, wordShards: number, wordPage: number, a: Assigned): string[] {
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
      // No prototype: a term "__proto__" is a term like any other.
      if (!shard) shards.set(s, (shard = Object.create(null) as WordShard));
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
