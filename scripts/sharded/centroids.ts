// Writes centroids.bin (one block per top: its lists' sub-centroid codes, counts and hashes) and
// index.bin, the start-up block that holds every centroid block's and word-table page's hash.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CENTROIDS_FILE, encodeCentroidBlock, encodeIndex, INDEX_FILE } from '../../src/library/sharded/format';
import { encodeSignBits } from '../../src/vector/sign-codes';
import { int8Codec } from '../../src/vector/row-store';
import type { ListLayout } from './lists';
import { sha256, shapeOf } from './options';
import { Appender } from './spill';
import type { Survey } from './survey';
import type { Trained } from './train';

/** `k` rows of `f` as 1-bit codes against the corpus centre, as the lists keep passages. */
export function signCodes(f: Float32Array, k: number, s: Survey): Uint8Array {
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
export function writeCentroids(
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
