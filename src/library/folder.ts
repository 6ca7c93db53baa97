// Folders given to the page (dropped, or chosen with the folder picker) walked
// recursively. Inside a folder, files that are not documents (images, code,
// hidden files) are skipped and counted, not refused one by one; files given
// one by one always go to the library, which names its reason if it refuses.
import type { NamedBlob } from './ingest';
import { isDocumentName } from './parse/formats';

export interface CollectedFiles {
  files: Array<File | NamedBlob>;
  /** Files inside folders that are not documents, left out. */
  skipped: number;
}

const hidden = (path: string) => path.split('/').some((p) => p.startsWith('.') && p.length > 1);

/** A file found in a folder, named by its path inside the folder the user gave. */
function named(file: File, path: string): File | NamedBlob {
  return path && path !== file.name ? { name: path, blob: file } : file;
}

/** From `<input type=file webkitdirectory>` (or a plain multi-file input). */
export function collectPicked(list: ArrayLike<File>): CollectedFiles {
  const out: CollectedFiles = { files: [], skipped: 0 };
  for (const f of Array.from(list)) {
    const path = f.webkitRelativePath;
    if (!path) out.files.push(f);
    else if (isDocumentName(f.name) && !hidden(path)) out.files.push(named(f, path));
    else out.skipped++;
  }
  return out;
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  // readEntries returns at most 100 entries per call in Chromium: call until empty.
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/**
 * Entries must be taken from the drop event synchronously (the DataTransfer is
 * emptied when the handler returns); this returns a function that walks them.
 */
export function takeDropped(dt: DataTransfer): () => Promise<CollectedFiles> {
  const entries = Array.from(dt.items ?? [])
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.() ?? null);
  const files = Array.from(dt.files ?? []);
  return async () => {
    // Without entries (old engines, synthetic drops) the files are what there is.
    if (entries.length === 0 || entries.some((e) => e === null)) return { files, skipped: 0 };
    const out: CollectedFiles = { files: [], skipped: 0 };
    const walk = async (entry: FileSystemEntry, inFolder: boolean): Promise<void> => {
      if (entry.isDirectory) {
        for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child, true);
        return;
      }
      const path = entry.fullPath.replace(/^\//, '');
      if (inFolder && (!isDocumentName(entry.name) || hidden(path))) out.skipped++;
      else out.files.push(named(await fileOf(entry as FileSystemFileEntry), inFolder ? path : entry.name));
    };
    for (const e of entries) if (e) await walk(e, false);
    return out;
  };
}
