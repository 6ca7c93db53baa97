// A RowStore on a file read and written at offsets: what an OPFS sync access handle
// does in the browser's index worker, here in Node so the bench holds the rows on disk.
import { closeSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import type { RowStore } from '../../src/core/row-store';

export class FileRowStore implements RowStore {
  private readonly fd: number;
  constructor(readonly rowBytes: number, private readonly path: string) {
    this.fd = openSync(path, 'w+');
  }
  write(row: number, bytes: Uint8Array): void {
    writeSync(this.fd, bytes, 0, this.rowBytes, row * this.rowBytes);
  }
  writeRows(first: number, bytes: Uint8Array): void {
    writeSync(this.fd, bytes, 0, bytes.length, first * this.rowBytes);
  }
  read(row: number, out: Uint8Array): void {
    if (readSync(this.fd, out, 0, this.rowBytes, row * this.rowBytes) !== this.rowBytes) throw new Error(`row ${row} is past the end of the store`);
  }
  truncate(rows: number): void {
    ftruncateSync(this.fd, rows * this.rowBytes);
  }
  memoryBytes(): number {
    return 0;
  }
  dispose(): void {
    closeSync(this.fd);
    unlinkSync(this.path);
  }
}
