// rows.bin: one record per passage, its int8 vector and the pointer to its text in texts.bin.
import { int8Codec } from '../../../vector/row-store';

/** Where one passage's text record lives, and the first 8 bytes of its SHA-256 (hex). */
export interface TextPointer {
  offset: number;
  bytes: number;
  hash: string;
}

export const pointerKey = (p: TextPointer) => `${p.offset}`;

const POINTER_BYTES = 20;

/** A row record: the int8 vector, then its text pointer. */
export const rowRecordBytes = (dim: number) => int8Codec.rowBytes(dim) + POINTER_BYTES;

export function writePointer(view: DataView, at: number, p: TextPointer): void {
  view.setFloat64(at, p.offset, true);
  view.setUint32(at + 8, p.bytes, true);
  for (let i = 0; i < 8; i++) view.setUint8(at + 12 + i, parseInt(p.hash.slice(i * 2, i * 2 + 2), 16));
}

export function readPointer(view: DataView, at: number): TextPointer {
  let hash = '';
  for (let b = 0; b < 8; b++)
    hash += view
      .getUint8(at + 12 + b)
      .toString(16)
      .padStart(2, '0');
  return { offset: view.getFloat64(at, true), bytes: view.getUint32(at + 8, true), hash };
}

/** A row record: the int8 row, then the text pointer. */
export function encodeRowRecord(row: Uint8Array, p: TextPointer, out: Uint8Array): Uint8Array {
  out.set(row, 0);
  writePointer(new DataView(out.buffer, out.byteOffset, out.byteLength), row.length, p);
  return out;
}

export function decodeRowRecord(bytes: Uint8Array, dim: number): { row: Uint8Array; pointer: TextPointer } {
  const rb = int8Codec.rowBytes(dim);
  return {
    row: bytes.subarray(0, rb),
    pointer: readPointer(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), rb),
  };
}
