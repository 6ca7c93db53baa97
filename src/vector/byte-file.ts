// A file read and written synchronously at byte offsets: an OPFS sync access handle in the
// index worker, a file descriptor in Node (bench). The compact index keeps its rows, codes
// and id log in such files so it can re-open without the library's float vectors.
import type { RowStore } from './row-store';

export interface ByteFile {
  /** Bytes in the file. */
  size(): number;
  /** Reads into `out` from `at`; returns how many bytes were read (fewer at the end). */
  read(at: number, out: Uint8Array): number;
  write(at: number, bytes: Uint8Array): void;
  truncate(size: number): void;
}

/** Rows of fixed size at `row × rowBytes` in a ByteFile. */
export class FileRowStore implements RowStore {
  constructor(
    readonly rowBytes: number,
    readonly file: ByteFile,
  ) {}
  write(row: number, bytes: Uint8Array): void {
    this.file.write(row * this.rowBytes, bytes.subarray(0, this.rowBytes));
  }
  writeRows(first: number, bytes: Uint8Array): void {
    this.file.write(first * this.rowBytes, bytes);
  }
  read(row: number, out: Uint8Array): void {
    if (this.file.read(row * this.rowBytes, out.subarray(0, this.rowBytes)) !== this.rowBytes)
      throw new Error(`row ${row} is past the end of the store`);
  }
  truncate(rows: number): void {
    this.file.truncate(rows * this.rowBytes);
  }
  rowCount(): number {
    return Math.floor(this.file.size() / this.rowBytes);
  }
  memoryBytes(): number {
    return 0;
  }
}
