// Writes centroids.bin (one block per top: its lists' sub-centroid codes, counts and hashes) and
// index.bin, the start-up block that holds every centroid block's and word-table page's hash.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCentroidBlock } from '../../src/library/sharded/format/centroids';
import { encodeIndex } from '../../src/library/sharded/format/index-block';
import { CENTROIDS_FILE, INDEX_FILE } from '../../src/library/sharded/format/manifest';
import { int8Codec } from '../../src/vector/row-store';
import type { ListLayout } from './lists';
import { sha256 } from './options';
import { Appender } from './spill';
import type { Survey } from './survey';
import type { Trained } from './train';

/** Top `top`'s sub-centroids coded as its centroid block keeps them: their codes and (RaBitQ) factors. */
export function subCodes(t: Trained, top: number, s: Survey): { codes: Uint8Array; factors: Float32Array | null } {
  const { dim, coder } = s;
  const shape = coder.shapes.sub;
  const k = t.subs[top]!;
  const f = t.coarse.subs[top]!;
  const codes = new Uint8Array(k * shape.bytes);
  const factors = new Float32Array(k);
  for (let c = 0; c < k; c++)
    factors[c] = coder.encode(f.subarray(c * dim, (c + 1) * dim), shape, codes, c * shape.bytes);
  return { codes, factors: shape.factors ? factors : null };
}

/**
 * One centroid block per top (its sub-centroids' codes and their lists' counts and hashes), then
 * index.bin, which keeps each block's hash and each word-table page's. Returns index.bin's bytes
 * and the tops as int8 rows.
 */
export function writeCentroids(
  out: string,
  s: Survey,
  t: Trained,
  counts: Uint32Array,
  l: ListLayout,
  pageSha: string[],
): { index: Uint8Array; topCentroids: Uint8Array } {
  const { dim, coder } = s;
  const rowBytes = int8Codec.rowBytes(dim);
  const blocks = new Appender(join(out, CENTROIDS_FILE));
  const blockSha: string[] = [];
  for (let top = 0; top < t.tops; top++) {
    const c0 = t.firstList[top]!,
      k = t.subs[top]!;
    const { codes, factors } = subCodes(t, top, s);
    const block = encodeCentroidBlock(
      coder.shapes.sub,
      l.listOffset[c0]!,
      l.firstRow[c0]!,
      codes,
      factors,
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
  // Sign codes (format 5) keep their spread at start-up; RaBitQ codes need only the centre.
  const spread = coder.choice.kind === 'sign' ? s.spread : null;
  const index = encodeIndex(dim, s.centre, spread, topCentroids, { subs: t.subs, sha: blockSha }, pageSha);
  writeFileSync(join(out, INDEX_FILE), index);
  return { index, topCentroids };
}
