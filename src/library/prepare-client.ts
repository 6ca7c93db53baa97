// The main thread's handle on the library worker: one call per file. A Stop
// cannot interrupt a parse already running, so the worker is replaced instead,
// which also frees whatever the unfinished file held.
import * as Comlink from 'comlink';
import type { FileLike, PrepareOptions, PrepareOutcome } from './ingest';
import type { OcrProgress } from './ocr/port';
import type { LibraryWorkerApi } from './protocol/library-worker';

const SIZE_CHUNK = 16;

export function createPrepareClient(): {
  prepare(
    file: FileLike,
    opts: PrepareOptions,
    signal?: AbortSignal,
    onOcr?: (p: OcrProgress) => void,
  ): Promise<PrepareOutcome>;
  sizes(files: FileLike[]): Promise<number[]>;
  terminate(): void;
} {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<LibraryWorkerApi> | null = null;
  const stop = () => {
    remote?.[Comlink.releaseProxy]();
    worker?.terminate();
    worker = null;
    remote = null;
  };
  const start = (): Comlink.Remote<LibraryWorkerApi> => {
    if (remote) return remote;
    // A URL, not an import: Vite finds and bundles the worker only when `new URL(…, import.meta.url)` sits inline in `new Worker`.
    worker = new Worker(new URL('../../workers/library.worker.ts', import.meta.url), {
      type: 'module',
      name: 'library',
    });
    remote = Comlink.wrap<LibraryWorkerApi>(worker);
    return remote;
  };
  // Started now, while the page is idle, so the first file of a batch does not pay for it.
  start();
  return {
    async prepare(file, opts, signal, onOcr) {
      signal?.throwIfAborted();
      // pdfjs and the recogniser are set up inside the worker; functions cannot cross threads
      // (the progress callback crosses as a Comlink proxy).
      const { pdf: _pdf, ocr: _ocr, ...rest } = opts;
      const onAbort = () => stop();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        // Stop during recognition ends the library worker, and with it the OCR worker it started.
        return await start().prepare(file, rest, onOcr ? Comlink.proxy(onOcr) : undefined);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async sizes(files) {
      // Bytes already in hand are measured here; files on disk in the worker.
      const onDisk = files
        .map((f, i) => [f, i] as const)
        .filter(([f]) => !('bytes' in f && f.bytes instanceof Uint8Array));
      const out = files.map((f) => ('bytes' in f && f.bytes instanceof Uint8Array ? f.bytes.length : 0));
      if (onDisk.length === 0) return out;
      // Posting a disk-backed File costs the main thread a stat: a few at a time keeps each task short.
      for (let at = 0; at < onDisk.length; at += SIZE_CHUNK) {
        const part = onDisk.slice(at, at + SIZE_CHUNK);
        const measured = await start().sizes(part.map(([f]) => f));
        part.forEach(([, i], k) => (out[i] = measured[k] ?? 0));
      }
      return out;
    },
    terminate: stop,
  };
}
