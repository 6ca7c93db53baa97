// The compact index's int8 rows in the origin-private file system, read and written
// synchronously through a sync access handle (index worker only): at 1M × 384 the rows
// are 388 MB that stay on disk, and a query reads about a hundred of them (39 kB).
import type { RowStore } from '../core/row-store';

interface SyncHandle {
  read(buffer: Uint8Array, options: { at: number }): number;
  write(buffer: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  close(): void;
}

export class OpfsRowStore implements RowStore {
  private constructor(readonly rowBytes: number, private readonly handle: SyncHandle) {}

  /** Null where OPFS sync handles are unavailable (main thread, old browsers): use the memory store then. */
  static async open(rowBytes: number, name: string): Promise<OpfsRowStore | null> {
    try {
      const root = await (navigator.storage as StorageManager & { getDirectory(): Promise<FileSystemDirectoryHandle> }).getDirectory();
      const file = await root.getFileHandle(name, { create: true });
      const create = (file as FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncHandle> }).createSyncAccessHandle;
      if (!create) return null;
      const handle = await create.call(file);
      // The index is rebuilt from the library's stored vectors at each start: begin empty.
      handle.truncate(0);
      return new OpfsRowStore(rowBytes, handle);
    } catch {
      return null;
    }
  }

  write(row: number, bytes: Uint8Array): void {
    this.handle.write(bytes.subarray(0, this.rowBytes), { at: row * this.rowBytes });
  }
  writeRows(first: number, bytes: Uint8Array): void {
    this.handle.write(bytes, { at: first * this.rowBytes });
  }
  read(row: number, out: Uint8Array): void {
    if (this.handle.read(out.subarray(0, this.rowBytes), { at: row * this.rowBytes }) !== this.rowBytes) throw new Error(`row ${row} is past the end of the store`);
  }
  truncate(rows: number): void {
    this.handle.truncate(rows * this.rowBytes);
  }
  memoryBytes(): number {
    return 0;
  }
}
