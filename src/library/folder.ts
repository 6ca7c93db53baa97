// Folders given to the page (dropped, or chosen with the folder picker) walked
// recursively. Inside a folder, files that are not documents (code, styles,
// hidden files, and images too small to be a page: icons, logos, buttons) are
// skipped and counted, not refused one by one; files given one by one always go
// to the library, which names its reason if it refuses. Images are pages to
// recognise (OCR), and recognising the icons of a website folder would fetch the
// 7 MB engine only to report each as "no text".
import type { NamedBlob } from './ingest';
import { captureDrop, type DroppedItems } from './drop';
import { isDocumentName } from './parse/formats';

/**
 * An image in a folder whose longer side is under this is decoration, not a page: the
 * common icon sizes go up to 512 px, and a page of text recognisable at 300 dpi is over
 * 2,000 px tall (a phone screenshot over 1,000). Dropped on its own it is still read.
 */
export const SMALLEST_PAGE_PX = 600;
const IMAGE_NAME = /\.(png|jpe?g|webp|gif|bmp)$/i;
/** Enough of the file for any of the headers `readImageHeader` reads (JPEG's frame can follow EXIF). */
const HEADER_BYTES = 64 * 1024;

/** True for an image whose header declares it smaller than a page; unreadable headers are left to the library to name. */
export async function isDecorationImage(name: string, blob: Blob): Promise<boolean> {
  if (!IMAGE_NAME.test(name)) return false;
  // Loaded with the first image in a folder, not with the page: the first screen never needs it.
  const { readImageHeader } = await import('./ocr/image-header');
  const header = readImageHeader(new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer()));
  if (!header?.width || !header.height) return false;
  return Math.max(header.width, header.height) < SMALLEST_PAGE_PX;
}

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
export async function collectPicked(list: ArrayLike<File>): Promise<CollectedFiles> {
  const out: CollectedFiles = { files: [], skipped: 0 };
  for (const f of Array.from(list)) {
    const path = f.webkitRelativePath;
    if (!path) out.files.push(f);
    else if (isDocumentName(f.name) && !hidden(path) && !(await isDecorationImage(f.name, f)))
      out.files.push(named(f, path));
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
  return walkDropped(captureDrop(dt));
}

/** Walks a captured drop's folders; called after the event, once this module has loaded. */
export function walkDropped({ entries, files }: DroppedItems): () => Promise<CollectedFiles> {
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
      if (inFolder && (!isDocumentName(entry.name) || hidden(path))) {
        out.skipped++;
        return;
      }
      const file = await fileOf(entry as FileSystemFileEntry);
      if (inFolder && (await isDecorationImage(entry.name, file))) out.skipped++;
      else out.files.push(named(file, inFolder ? path : entry.name));
    };
    for (const e of entries) if (e) await walk(e, false);
    return out;
  };
}
