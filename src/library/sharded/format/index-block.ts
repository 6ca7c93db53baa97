// index.bin, the start-up block: the codes' centre, the top centroids with their blocks' sizes and
// hashes, and the word table's page hashes. Every other block's place follows from it.
import { int8Codec } from '../../../vector/row-store';
import { hexOf, TABLE_HASH_BYTES, writeHex } from './bytes';
import { centroidBlockBytes } from './centroids';
import { codeShapes } from './codes';
import type { ShardedManifest } from './manifest';
import { pageBytes, pageCount, pageEntries } from './words';

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
