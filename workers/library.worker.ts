// Reads, parses and chunks documents off the main thread (comlink), so a large
// or deeply nested file never freezes the page. The File is handed over as is:
// its bytes are read here, after the size check, never on the main thread.
import * as Comlink from 'comlink';
import type { FileLike, PrepareOptions, PrepareOutcome } from '../src/library/ingest';
import type { LibraryWorkerApi } from '../src/library/protocol/library-worker';

const api: LibraryWorkerApi = {
  async sizes(files: FileLike[]): Promise<number[]> {
    const { sizeOf } = await import('../src/library/ingest');
    return files.map((f) => sizeOf(f) ?? 0);
  },
  async prepare(file: FileLike, opts: Omit<PrepareOptions, 'pdf'>): Promise<PrepareOutcome> {
    // Imported lazily: a top-level await in a comlink worker's import graph hangs its first calls.
    const [{ readAndPrepare }, { loadPdfJsInBrowser }] = await Promise.all([import('../src/library/ingest'), import('../src/library/parse/pdf-browser')]);
    return readAndPrepare(file, { ...opts, pdf: loadPdfJsInBrowser });
  },
};

Comlink.expose(api);
