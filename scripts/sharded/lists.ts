// Lays out lists.bin and rows.bin from pass 2's spilled records: each list's block and first row
// follow from the counts, records are scattered into place, and each list's rows are put in a
// local order (near rows together) before its block is hashed.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { SHORT_HASH_BYTES } from '../../src/library/sharded/format/bytes';
import { listBlockBytes } from '../../src/library/sharded/format/lists';
import { LISTS_FILE, ROWS_FILE } from '../../src/library/sharded/format/manifest';
import { rowRecordBytes } from '../../src/library/sharded/format/rows';
import { CentroidAssigner, sphericalKMeans } from '../../src/vector/kmeans';
import { int8Codec } from '../../src/vector/row-store';
import { sha256, type Shape } from './options';

/** Where each list's block lies in lists.bin and its first row in rows.bin, and each list's hash. */
export interface ListLayout {
  listOffset: number[];
  firstRow: number[];
  listSha: string[];
}

/**
 * Lists and rows: each block's place follows from the counts; records are scattered into place.
 * A list holds its codes, then their factors (RaBitQ), then its rows' record hashes; rows.bin
 * holds the records in list order.
 */
export function layOutLists(out: string, tmp: string, shape: Shape, counts: Uint32Array): ListLayout {
  const { dim, cb, fb, rb, recordBytes, list } = shape;
  const lists = counts.length;
  const listOffset: number[] = [];
  const firstRow: number[] = [];
  for (let c = 0, at = 0, r = 0; c < lists; c++) {
    listOffset.push(at);
    firstRow.push(r);
    at += listBlockBytes(counts[c]!, list);
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
      const rec = chunk.subarray(o + 4 + cb + fb, o + recordBytes);
      writeSync(listsFd, chunk, o + 4, cb, base + 4 + i * cb);
      if (fb) writeSync(listsFd, chunk, o + 4 + cb, fb, base + 4 + counts[c]! * cb + i * fb);
      writeSync(
        listsFd,
        createHash('sha256').update(rec).digest(),
        0,
        SHORT_HASH_BYTES,
        base + 4 + counts[c]! * (cb + fb) + i * SHORT_HASH_BYTES,
      );
      writeSync(rowsFd, rec, 0, rb, (firstRow[c]! + i) * rb);
    }
  }
  closeSync(recFd);
  // Each list's rows reordered so near rows sit together (one list in memory at a time), then hashed.
  const listSha: string[] = [];
  for (let c = 0; c < lists; c++) {
    const count = counts[c]!;
    const block = Buffer.allocUnsafe(listBlockBytes(count, list));
    readSync(listsFd, block, 0, block.length, listOffset[c]!);
    const recs = Buffer.allocUnsafe(count * rb);
    readSync(rowsFd, recs, 0, recs.length, firstRow[c]! * rb);
    const order = localOrder(recs, count, dim);
    if (order) {
      const factorAt = 4 + count * cb;
      const hashAt = factorAt + count * fb;
      const codes = Buffer.from(block.subarray(4, factorAt));
      const factors = Buffer.from(block.subarray(factorAt, hashAt));
      const hashes = Buffer.from(block.subarray(hashAt));
      const before = Buffer.from(recs);
      order.forEach((from, to) => {
        codes.copy(block, 4 + to * cb, from * cb, (from + 1) * cb);
        if (fb) factors.copy(block, factorAt + to * fb, from * fb, (from + 1) * fb);
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
