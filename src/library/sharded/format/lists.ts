// lists.bin: one block per sub-centroid, holding its passages' codes, factors and row-record hashes.
import { hexOf, readFactors, SHORT_HASH_BYTES, writeFactors, writeHex } from './bytes';
import { type CodeShape, entryBytes } from './codes';

export function listBlockBytes(count: number, shape: CodeShape): number {
  return 4 + count * (entryBytes(shape) + SHORT_HASH_BYTES);
}

/** u32 count; count × code (shape.bytes); count × f32 factor (RaBitQ only); count × 8-byte row-record hash. */
export function encodeListBlock(
  codes: Uint8Array,
  factors: ArrayLike<number> | null,
  rowHashes: readonly string[],
  shape: CodeShape,
): Uint8Array {
  const count = rowHashes.length;
  const out = new Uint8Array(listBlockBytes(count, shape));
  new DataView(out.buffer).setUint32(0, count, true);
  out.set(codes.subarray(0, count * shape.bytes), 4);
  let at = 4 + count * shape.bytes;
  if (shape.factors) {
    writeFactors(out, at, factors!, count);
    at += count * 4;
  }
  rowHashes.forEach((h, i) => writeHex(out, at + i * SHORT_HASH_BYTES, h, SHORT_HASH_BYTES));
  return out;
}

export interface ListBlock {
  count: number;
  /** Row i's code is `codes.subarray(i * shape.bytes, (i + 1) * shape.bytes)`. */
  codes: Uint8Array;
  /** Row i's RaBitQ factor (format 6); null for sign codes. */
  factors: Float32Array | null;
  /** Row i's record hash (hex). */
  rowHash(i: number): string;
}

export function decodeListBlock(bytes: Uint8Array, shape: CodeShape): ListBlock {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length >= 4 ? view.getUint32(0, true) : -1;
  if (count < 0 || bytes.length !== listBlockBytes(count, shape))
    throw new Error('list block has the wrong size for its count');
  const codesEnd = 4 + count * shape.bytes;
  const factors = shape.factors ? readFactors(bytes, codesEnd, count) : null;
  const hashes = bytes.subarray(codesEnd + (shape.factors ? count * 4 : 0));
  return {
    count,
    codes: bytes.subarray(4, codesEnd),
    factors,
    rowHash: (i) => hexOf(hashes.subarray(i * SHORT_HASH_BYTES, (i + 1) * SHORT_HASH_BYTES)),
  };
}
