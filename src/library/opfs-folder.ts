// The compact index's files in the origin-private file system, read and written synchronously
// through sync access handles (index worker only): at 1M × 384 the int8 rows are 388 MB that stay
// on disk (a query reads about a hundred of them, 39 kB), and the codes, id log and head let the
// library re-open its index without its float vectors (compact-persistence.ts).
import type { FileFolder, FolderFile } from './compact-persistence';

interface SyncHandle {
  read(buffer: Uint8Array, options: { at: number }): number;
  write(buffer: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  getSize(): number;
  close(): void;
}

type Root = FileSystemDirectoryHandle & { removeEntry(name: string): Promise<void> };

async function root(): Promise<Root> {
  return (await (
    navigator.storage as StorageManager & { getDirectory(): Promise<FileSystemDirectoryHandle> }
  ).getDirectory()) as Root;
}

class OpfsFile implements FolderFile {
  constructor(private readonly handle: SyncHandle) {}
  size(): number {
    return this.handle.getSize();
  }
  read(at: number, out: Uint8Array): number {
    return this.handle.read(out, { at });
  }
  write(at: number, bytes: Uint8Array): void {
    if (this.handle.write(bytes, { at }) !== bytes.length)
      throw new Error('the browser wrote fewer bytes than asked (is the disk full?)');
  }
  truncate(size: number): void {
    this.handle.truncate(size);
  }
  close(): void {
    this.handle.close();
  }
}

/** OPFS as a FileFolder; a file is null where sync handles are unavailable (main thread, old browsers) or another tab holds it. */
export const opfsFolder: FileFolder = {
  async open(name, create = true) {
    try {
      const file = await (await root()).getFileHandle(name, { create });
      const sync = (file as FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncHandle> })
        .createSyncAccessHandle;
      if (!sync) return null;
      return new OpfsFile(await sync.call(file));
    } catch {
      return null;
    }
  },
  async remove(name) {
    await (await root()).removeEntry(name);
  },
};

/** The previous layout's file (int8 rows only, rebuilt at every start): up to 388 MB at 1M passages that nothing reads any more. */
const LEGACY = /^compact-rows-\d+\.bin$/;

/** Deletes the files of earlier layouts (a held or already-gone file is left for the next start); returns their names. */
export async function removeLegacyFiles(dir?: FileSystemDirectoryHandle): Promise<string[]> {
  const removed: string[] = [];
  try {
    const d = (dir ?? (await root())) as Root & { keys(): AsyncIterable<string> };
    const names: string[] = [];
    for await (const name of d.keys()) if (LEGACY.test(name)) names.push(name);
    for (const name of names) {
      try {
        await d.removeEntry(name);
        removed.push(name);
      } catch {
        // Another tab of the old version still holds it.
      }
    }
  } catch {
    // No OPFS here: nothing was ever written.
  }
  return removed;
}
