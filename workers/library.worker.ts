// Reads, parses and chunks documents off the main thread (comlink), so a large
// or deeply nested file never freezes the page. The File is handed over as is:
// its bytes are read here, after the size check, never on the main thread.
// Scanned pages and images are rendered here and recognised in the OCR worker,
// started the first time a scan arrives (a reader who never adds one never
// downloads the recogniser) and reused for every page after.
import * as Comlink from 'comlink';
import type { FileLike, PrepareOptions, PrepareOutcome } from '../src/library/ingest';
import type { OcrProgress } from '../src/library/ocr/port';
import type { Recognition } from '../src/library/ocr/recognition';
import type { LibraryWorkerApi } from '../src/library/protocol/library-worker';
import type { OcrWorkerApi } from '../src/library/protocol/ocr-worker';

let ocr: Comlink.Remote<OcrWorkerApi> | null = null;

function recognise(bitmap: ImageBitmap, dpi?: number): Promise<Recognition> {
  ocr ??= Comlink.wrap<OcrWorkerApi>(
    new Worker(new URL('./ocr.worker.ts', import.meta.url), { type: 'module', name: 'ocr' }),
  );
  return ocr.recognise(Comlink.transfer(bitmap, [bitmap]), dpi);
}

const api: LibraryWorkerApi = {
  async sizes(files: FileLike[]): Promise<number[]> {
    const { sizeOf } = await import('../src/library/ingest');
    return files.map((f) => sizeOf(f) ?? 0);
  },
  async prepare(
    file: FileLike,
    opts: Omit<PrepareOptions, 'pdf' | 'ocr'>,
    onOcr?: (p: OcrProgress) => void,
  ): Promise<PrepareOutcome> {
    // Imported lazily: a top-level await in a comlink worker's import graph hangs its first calls.
    const [{ readAndPrepare }, { loadPdfJsInBrowser }, { createBrowserOcrPort }] = await Promise.all([
      import('../src/library/ingest'),
      import('../src/library/parse/pdf-browser'),
      import('../src/library/ocr/browser-port'),
    ]);
    return readAndPrepare(file, {
      ...opts,
      pdf: loadPdfJsInBrowser,
      ocr: createBrowserOcrPort(recognise, onOcr ? (p) => void onOcr(p) : undefined),
    });
  },
};

Comlink.expose(api);
