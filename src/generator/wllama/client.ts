// Starts workers/wllama.worker.ts and speaks to it through comlink. Created
// only when the wllama engine is chosen, so neither the worker nor wllama's
// wasm reaches the first-load chunk.
import * as Comlink from 'comlink';
import { workerCrashed } from '../errors';
import type { WllamaEngine } from './decoder';
import { wllamaError } from './errors';
import type { WllamaHost, WllamaLoadInfo, WllamaLoadOptions, WllamaModelSource } from './protocol';

export interface WllamaConnection extends WllamaEngine {
  load(
    source: WllamaModelSource,
    opts: WllamaLoadOptions,
    onProgress?: (loaded: number, total: number) => void,
  ): Promise<WllamaLoadInfo>;
  cancelDownload(): void;
  kept(candidates: string[][]): Promise<string[] | null>;
  deleteCached(urls: string[]): Promise<void>;
  terminate(): void;
  /** Rejects if the worker dies (it ran out of memory): calls in flight would never settle. */
  failed: Promise<never>;
}

/** `savedStorage`: a fresh port to the page's saved-storage relay, when the frame was granted Storage Access. */
export function connectWllama(savedStorage?: () => MessagePort): WllamaConnection {
  const worker = new Worker(new URL('../../../workers/wllama.worker.ts', import.meta.url), {
    type: 'module',
    name: 'wllama',
  });
  const host = Comlink.wrap<WllamaHost>(worker);
  const port = savedStorage?.();
  if (port) void host.useSavedStorage(Comlink.transfer(port, [port]));
  let fail: (e: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  worker.addEventListener('error', (e) => fail(workerCrashed('llama.cpp', e.message || 'script error')));
  // The worker sends its errors already sorted into the shared kinds (workers/wllama/host.ts).
  const race = <T>(p: Promise<T>): Promise<T> =>
    Promise.race([p, failed]).catch((e: unknown) => {
      throw wllamaError(e);
    });
  return {
    load: (source, opts, onProgress) =>
      race(host.load(source, opts, onProgress ? Comlink.proxy(onProgress) : undefined)),
    cancelDownload: () => void host.cancelDownload(),
    chatStream: (id, req, onChunk) => race(host.chatStream(id, req, Comlink.proxy(onChunk))),
    complete: (id, req) => race(host.complete(id, req)),
    abort: (id) => void host.abort(id),
    tokenIds: (texts) => race(host.tokenIds(texts)),
    kept: (candidates) => race(host.kept(candidates)),
    deleteCached: (urls) => race(host.deleteCached(urls)),
    terminate: () => worker.terminate(),
    failed,
  };
}
