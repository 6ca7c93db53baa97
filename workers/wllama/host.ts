// What the wllama worker exposes. wllama is imported lazily inside load()
// (a top-level await in a comlink worker's import graph hangs the first calls).
// The wasm is the package's own file, served by the site: never a CDN.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { Wllama } from '@wllama/wllama/esm/index.js';
import { headerBytes, loadFixes } from './load-fixes';
import { isKept, keptAddress } from '../../src/generator/wllama/kept';
import { readHeader, readVocab, tokenIds, type Vocab } from './vocab';
import { errorForWire } from '../../src/generator/wllama/errors';
import type {
  WllamaHost,
  WllamaLoadInfo,
  WllamaLoadOptions,
  WllamaModelSource,
} from '../../src/generator/wllama/protocol';
import { relayedFiles } from '../saved-storage/relay';

type CacheManagerT = InstanceType<typeof import('@wllama/wllama/esm/index.js')['CacheManager']>;

/** What one host's calls share: the vocabulary of the file loaded, the download in flight, what wllama logged. */
interface Loading {
  vocab: Vocab | null;
  download: AbortController | undefined;
  errors: string[];
}

/** A wllama instance with the package's own wasm, logging its errors into `errors`. */
async function newWllama(saved: CacheManagerT | undefined, errors: string[]): Promise<Wllama> {
  const { Wllama } = await import('@wllama/wllama/esm/index.js');
  const w = new Wllama(
    { default: new URL(wasmUrl, self.location.href).href },
    {
      ...(saved ? { cacheManager: saved } : {}),
      suppressNativeLog: true,
      // Load failures reach JavaScript as a bare "(ABORT)"; the reason only goes to the logger.
      logger: {
        debug: () => {},
        log: () => {},
        warn: () => {},
        error: (...a: unknown[]) => void errors.push(a.map(String).join(' ')),
      },
    },
  );
  // Never fetch the "compat" build from a CDN; browsers without JSPI / Memory64 get a clear error instead.
  w.setCompat(null);
  return w;
}

/** Loads a model from a blob, from a download held in memory, or through wllama's OPFS cache. */
async function loadModel(
  w: Wllama,
  at: Loading,
  source: WllamaModelSource,
  opts: WllamaLoadOptions,
  onProgress?: (loaded: number, total: number) => void,
): Promise<void> {
  const base = {
    n_ctx: opts.nCtx,
    n_threads: opts.nThreads,
    n_batch: opts.nBatch ?? 512,
    n_gpu_layers: opts.gpuLayers ?? 0,
  };
  // What the file needs beyond the defaults (load-fixes.ts), read from its header before loading.
  const withFixes = async (first: Blob) => {
    const header = await readHeader(first);
    at.vocab = header?.vocab ?? null;
    return { ...base, ...(header ? loadFixes(header.traits) : {}) };
  };
  at.vocab = null;
  if ('blob' in source) return w.loadModel([source.blob], await withFixes(source.blob));
  at.download = new AbortController();
  if (source.noCache) {
    // wllama's loadModelFromUrl always goes through its OPFS cache; without storage the
    // files are fetched into memory and handed over as blobs (downloaded again next visit).
    const blobs = await fetchBlobs(source.urls, at.download.signal, onProgress);
    return w.loadModel(blobs, await withFixes(blobs[0]!));
  }
  // Kept whole (kept.ts): loaded from storage with no request at all. wllama's own path asks the
  // network when a file fails its check, and its `allowOffline` option is declared but never read (3.8.1).
  if (isKept(await w.cacheManager.list(), source.urls)) {
    const blobs = await Promise.all(source.urls.map((u) => w.cacheManager.open(u)));
    if (blobs.every((b): b is Blob => b !== null)) return w.loadModel(blobs, await withFixes(blobs[0]!));
  }
  const cached = await w.cacheManager.open(source.urls[0]!);
  const params = await withFixes(cached ?? (await headerBytes(source.urls[0]!, at.download.signal)));
  await w.loadModelFromUrl(source.urls.length === 1 ? source.urls[0]! : source.urls.join(','), {
    ...params,
    signal: at.download.signal,
    progressCallback: ({ loaded, total }) => onProgress?.(loaded, total),
  } as Parameters<Wllama['loadModelFromUrl']>[1]);
  await keepWhole(w, source.urls);
  if (!at.vocab) {
    const first = await w.cacheManager.open(source.urls[0]!);
    at.vocab = first ? await readVocab(first) : null;
  }
}

/**
 * After a load from the network: llama.cpp read every byte of the stored files, so they are whole.
 * Where the size wllama recorded is not the stored size (a server that compressed the download, or
 * sent no length), it is recorded anew; else the next load, offline, would fail wllama's check and
 * try to download again.
 */
async function keepWhole(w: Wllama, urls: string[]): Promise<void> {
  const entries = await w.cacheManager.list();
  for (const url of urls) {
    const e = entries.find((x) => x.metadata.originalURL === url);
    if (e && e.size > 0 && e.metadata.originalSize !== e.size)
      await w.cacheManager.writeMetadata(e.name, { ...e.metadata, originalSize: e.size });
  }
}

export function createWllamaHost(): WllamaHost {
  let wllama: Wllama | undefined;
  const running = new Map<number, AbortController>();
  const at: Loading = { vocab: null, download: undefined, errors: [] };
  // The app site's OPFS cache through the page's relay (a frame granted Storage Access); else wllama's own.
  let savedCache: Promise<CacheManagerT | undefined> | undefined;

  const lib = () => import('@wllama/wllama/esm/index.js');
  const cacheManager = async (): Promise<CacheManagerT> => (await savedCache) ?? new (await lib()).CacheManager();
  const instance = async (): Promise<Wllama> => (wllama ??= await newWllama(await savedCache, at.errors));
  /** A call on the model that `abort(id)` can stop. */
  async function abortable<T>(id: number, call: (w: Wllama, signal: AbortSignal) => Promise<T>): Promise<T> {
    const w = await instance();
    const ctrl = new AbortController();
    running.set(id, ctrl);
    try {
      return await call(w, ctrl.signal);
    } catch (e) {
      throw errorForWire(e, 'decode');
    } finally {
      running.delete(id);
    }
  }

  return {
    useSavedStorage(port) {
      savedCache = (async () => {
        const backend = await relayedFiles(port, 'llama.cpp');
        return backend ? new (await lib()).CacheManager([backend]) : undefined;
      })();
    },

    async load(
      source: WllamaModelSource,
      opts: WllamaLoadOptions,
      onProgress?: (loaded: number, total: number) => void,
    ): Promise<WllamaLoadInfo> {
      const w = await instance();
      at.errors.length = 0;
      try {
        await loadModel(w, at, source, opts, onProgress);
      } catch (e) {
        throw errorForWire(e, 'load', at.errors.length ? ` ${at.errors.slice(-3).join(' ')}` : '');
      } finally {
        at.download = undefined;
      }
      const info = w.getLoadedContextInfo();
      return {
        nVocab: info.n_vocab,
        nCtx: info.n_ctx,
        threads: w.getNumThreads(),
        multiThread: w.isMultithread(),
        chatTemplate: w.getChatTemplate(),
      };
    },

    async tokenIds(texts) {
      return at.vocab ? tokenIds(at.vocab, texts) : texts.map(() => null);
    },

    cancelDownload() {
      at.download?.abort();
    },

    chatStream: (id, request, onChunk) =>
      abortable(id, async (w, abortSignal) => {
        // The callback is a comlink proxy on its own message port: wait until every chunk is
        // delivered before answering, or the last ones could arrive after the reply.
        const delivered: unknown[] = [];
        await w.createChatCompletion({
          ...request,
          stream: true,
          abortSignal,
          onData: (c: unknown) => void delivered.push(onChunk(c as never)),
        } as never);
        await Promise.all(delivered);
      }),

    complete: (id, request) =>
      abortable(
        id,
        async (w, abortSignal) =>
          (await w.createCompletion({ ...request, stream: false, abortSignal } as never)) as never,
      ),

    abort(id) {
      running.get(id)?.abort();
    },

    async kept(candidates) {
      return keptAddress(await (await cacheManager()).list(), candidates);
    },

    async deleteCached(urls) {
      const cm = await cacheManager();
      await cm.deleteMany((e) => urls.includes(e.metadata.originalURL));
    },

    async unload() {
      await wllama?.exit();
      wllama = undefined;
    },
  };
}

/** Downloads each file into a Blob, reporting bytes over all of them. */
async function fetchBlobs(
  urls: string[],
  signal: AbortSignal,
  onProgress?: (loaded: number, total: number) => void,
): Promise<Blob[]> {
  const responses = await Promise.all(urls.map((u) => fetch(u, { signal })));
  const bad = responses.find((r) => !r.ok);
  if (bad) throw new Error(`Download failed: ${bad.status} ${bad.statusText} for ${bad.url}`);
  const total = responses.reduce((n, r) => n + Number(r.headers.get('content-length') ?? 0), 0);
  let loaded = 0;
  const blobs: Blob[] = [];
  for (const r of responses) {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const reader = r.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      onProgress?.(loaded, total);
    }
    blobs.push(new Blob(chunks));
  }
  return blobs;
}
