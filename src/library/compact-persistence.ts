// Where a library's compact index keeps its own state (codes, id log, head and int8 rows: see
// vector/compact-journal.ts), four files named after the library's database, so a library re-opens
// its index without reading a float. The folder is OPFS in the index worker (opfs-folder.ts).
import type { ByteFile } from '../vector/byte-file';
import { FileRowStore } from '../vector/byte-file';
import { CompactIndex, type CompactOptions } from '../vector/compact-index';
import { int8Codec } from '../vector/row-store';

export interface FolderFile extends ByteFile {
  close(): void;
}

export interface FileFolder {
  /** Opens a file, creating it unless `create` is false; null when absent or the folder cannot hold it now (no OPFS; another tab holds it). */
  open(name: string, create?: boolean): Promise<FolderFile | null>;
  remove(name: string): Promise<void>;
}

export interface CompactPersistence {
  /** The saved index of library `name`: null when none was saved or files cannot be opened; a CompactStateError when unusable. */
  open(name: string, stamp: string): Promise<CompactIndex | null>;
  /** A new, empty index saved under `name` (replacing what was there); null when files cannot be opened. */
  create(name: string, stamp: string, dim: number): Promise<CompactIndex | null>;
  /** Deletes what was saved under `name` (the library chose another index kind). */
  discard(name: string): Promise<void>;
}

const PARTS = ['head', 'ids', 'codes', 'rows'] as const;
type Files = Record<(typeof PARTS)[number], FolderFile>;

/** The four files of library `name` (a database name; characters a file name cannot hold become '_'). */
export const compactFileNames = (name: string): string[] =>
  PARTS.map((p) => `${name.replace(/[^\w.-]/g, '_')}.compact-${p}`);

export function compactPersistence(
  folder: FileFolder,
  opts: Omit<CompactOptions, 'files' | 'store' | 'stamp'> = {},
): CompactPersistence {
  // One set of handles per library for the worker's life: OPFS sync handles are exclusive.
  const held = new Map<string, Promise<Files | null>>();
  const filesOf = (name: string): Promise<Files | null> => {
    let f = held.get(name);
    if (!f) {
      f = (async () => {
        const names = compactFileNames(name);
        const opened: FolderFile[] = [];
        for (const n of names) {
          const file = await folder.open(n);
          if (!file) {
            opened.forEach((o) => o.close());
            return null;
          }
          opened.push(file);
        }
        return Object.fromEntries(PARTS.map((p, i) => [p, opened[i]!])) as Files;
      })();
      held.set(name, f);
      // A folder that could not open them now may be able to later (another tab closed).
      void f.then((x) => x === null && held.delete(name));
    }
    return f;
  };
  return {
    async open(name, stamp) {
      // A library that never had a compact index gets no files for asking.
      if (!held.has(name)) {
        const head = await folder.open(compactFileNames(name)[0]!, false);
        if (!head) return null;
        head.close();
      }
      const f = await filesOf(name);
      return f && CompactIndex.reopen(f, f.rows, { ...opts, stamp });
    },
    async create(name, stamp, dim) {
      const f = await filesOf(name);
      return (
        f &&
        new CompactIndex(dim, { ...opts, files: f, store: new FileRowStore(int8Codec.rowBytes(dim), f.rows), stamp })
      );
    },
    async discard(name) {
      const f = await held.get(name);
      held.delete(name);
      if (f) PARTS.forEach((p) => f[p].close());
      for (const n of compactFileNames(name)) await folder.remove(n).catch(() => undefined);
    },
  };
}
