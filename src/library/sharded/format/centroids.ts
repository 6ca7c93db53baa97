// centroids.bin: one block per top centroid, holding its sub-centroids' codes and, per
// sub-centroid (= list), the list's row count and hash.
import { hexOf, readFactors, TABLE_HASH_BYTES, writeFactors, writeHex } from './bytes';
import { type CodeShape, entryBytes } from './codes';
import { listBlockBytes } from './lists';

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
