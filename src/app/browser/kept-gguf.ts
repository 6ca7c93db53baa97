// The GGUF models llama.cpp (wllama) keeps in this browser, read from its folder in OPFS for the
// offline panel without starting the engine: each file beside its `__metadata__` record, judged by
// the rule the loader and the picker use (generator/wllama/kept.ts), so the three agree.
import { keptModelNames, type KeptEntry } from '../../generator/wllama/kept';
import { WLLAMA_CACHE_DIR } from '../../saved-storage/protocol';

/** wllama 3.8's name for a file's record (esm/cache-manager.js `PREFIX_METADATA`). */
const METADATA = '__metadata__';

type Folder = FileSystemDirectoryHandle & { entries(): AsyncIterable<[string, FileSystemHandle]> };

/** The kept models' file names; none when this browser has no OPFS or wllama never stored anything. */
export async function listKeptGguf(
  root: (() => Promise<FileSystemDirectoryHandle>) | undefined = globalThis.navigator?.storage?.getDirectory?.bind(
    globalThis.navigator.storage,
  ),
): Promise<string[]> {
  if (!root) return [];
  let folder: Folder;
  try {
    // Not created here: a browser that never ran llama.cpp keeps no folder for it.
    folder = (await (await root()).getDirectoryHandle(WLLAMA_CACHE_DIR)) as Folder;
  } catch {
    return [];
  }
  const files = new Map<string, File>();
  for await (const [name, handle] of folder.entries())
    if (handle.kind === 'file') files.set(name, await (handle as FileSystemFileHandle).getFile());
  const entries: KeptEntry[] = [];
  for (const [name, file] of files) {
    if (name.startsWith(METADATA)) continue;
    const record = files.get(METADATA + name);
    const metadata = record ? await readRecord(record) : null;
    entries.push({ name, size: file.size, metadata });
  }
  return keptModelNames(entries);
}

async function readRecord(file: Blob): Promise<KeptEntry['metadata']> {
  try {
    const m = JSON.parse(await file.text()) as { originalURL?: unknown; originalSize?: unknown };
    return typeof m.originalURL === 'string' && typeof m.originalSize === 'number'
      ? { originalURL: m.originalURL, originalSize: m.originalSize }
      : null;
  } catch {
    return null;
  }
}
