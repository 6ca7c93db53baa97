// Pass 2 of the writer: files each passage in its list, appends its text, and spills its fixed-size
// record (list, code and factor, int8 row, text pointer) and its word postings to temporary files.
import { join } from 'node:path';
import { TEXTS_FILE } from '../../src/library/sharded/format/manifest';
import { encodeRowRecord, type TextPointer } from '../../src/library/sharded/format/rows';
import { encodeText } from '../../src/library/sharded/format/texts';
import { termShard } from '../../src/library/sharded/format/words';
import { tokenize } from '../../src/library/lexical/tokenize';
import { int8Codec } from '../../src/vector/row-store';
import type { NeighbourTracker } from './calibrate';
import { sha256, shapeOf, unit, type WriteShardedOptions } from './options';
import { Appender, BucketFile } from './spill';
import type { Survey } from './survey';
import type { Trained } from './train';

/** Postings text a temporary word bucket holds, at most (as estimated); one bucket is parsed into memory at a time. */
export const WORD_BUCKET_BYTES = 32 * 1024 * 1024;
/** Postings bytes per character of passage text, as estimated for the bucket count (measured ≈ 4.3 on the bench's text; 6 is a margin). */
const POSTING_BYTES_PER_CHAR = 6;
/** All word buckets' write buffers together. */
const WORD_BUFFER_BYTES = 64 * 1024 * 1024;

/** What pass 2 spilled: each list's count, the texts' size, the word buckets. */
export interface Assigned {
  counts: Uint32Array;
  /** Sum of the passages' lengths in distinct terms. */
  totalLength: number;
  textBytes: number;
  buckets: BucketFile[];
  bucketOf(shard: number): number;
  largestBucket: number;
}

/** Pass 2: assign each passage to its list, append its text, spill its record (list, code, factor, row record) and its postings. */
export async function assign(
  opts: WriteShardedOptions,
  out: string,
  tmp: string,
  s: Survey,
  t: Trained,
  wordShards: number,
  tracker: NeighbourTracker | null,
  log: (line: string) => void,
): Promise<Assigned> {
  const { n, dim } = s;
  const { cb, fb, rowBytes, recordBytes, list } = shapeOf(dim, s.coder.shapes.list);
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
    const factor = s.coder.encode(v, list, record, 4);
    if (fb) view.setFloat32(4 + cb, factor, true);
    tracker?.add(v, c, record.subarray(4, 4 + cb), factor, { docId: r.docId, index: r.index });
    int8Codec.encode(v, row);
    encodeRowRecord(row, pointer, record.subarray(4 + cb + fb));
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
