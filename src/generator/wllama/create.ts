// The generator handle over llama.cpp (wllama): the driver for the shared lifecycle
// (../shared/lifecycle.ts), so the decode loop, the UI and the status panel get the same
// GeneratorHandle as for web-llm. wllama, its worker and its wasm load only here.
import { GeneratorError } from '../errors';
import { resolveGguf, type GgufChoice } from '../gguf-catalogue';
import type { GeneratorHandle, GeneratorHooks } from '../handle';
import { createHandle, type EngineDriver } from '../shared/lifecycle';
import type { WllamaConnection } from './client';
import { WllamaGenerator, WLLAMA_DEFAULTS } from './decoder';
import { wllamaError } from './errors';
import { siteCopy } from './kept';

export interface WllamaConfig {
  model: GgufChoice;
  temperature?: number;
  seed?: number;
  maxSegmentTokens?: number;
  nCtx?: number;
  /** Threads for llama.cpp; more than one only works when the page is cross-origin isolated. */
  nThreads?: number;
  baseURI?: string;
  /** Download the model into memory for this visit, not into OPFS (the page has no storage). */
  noCache?: boolean;
  /** A fresh port to the page's saved-storage relay: the GGUF cache is the app site's (Storage Access granted). */
  savedStorage?: () => MessagePort;
}

export interface WllamaHooks extends GeneratorHooks {
  /** Swaps how the worker is started (tests). */
  connect?: () => WllamaConnection;
}

export function defaultThreads(): number {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return isolated ? Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 1)) : 1;
}

export function createWllamaGenerator(config: WllamaConfig, hooks: WllamaHooks = {}): GeneratorHandle {
  const baseURI = config.baseURI ?? globalThis.document?.baseURI ?? 'http://localhost/';
  let conn: WllamaConnection | undefined;
  const resolved = () => {
    try {
      return resolveGguf(config.model, baseURI);
    } catch (e) {
      throw new GeneratorError(
        'bad-config',
        (e as Error).message,
        'Pick a model from the list, or give an https address ending in .gguf.',
      );
    }
  };
  const connect = async (): Promise<WllamaConnection> =>
    hooks.connect ? hooks.connect() : (await import('./client')).connectWllama(config.savedStorage);
  /** Every address the chosen model may be stored under: a catalogue model's site copy, then its own. */
  const addresses = (): string[][] => {
    const { urls } = resolved();
    return config.model.kind === 'gguf' ? [siteCopy(urls, baseURI), urls] : [urls];
  };

  const driver: EngineDriver = {
    get modelId() {
      return resolved().name;
    },
    get native() {
      return resolved().native;
    },
    get local() {
      return resolved().urls.every((u) => new URL(u).origin === new URL(baseURI).origin);
    },
    checkTemperature(t) {
      if (!(t >= 0) || !Number.isFinite(t)) throw new RangeError(`Temperature must be 0 or more, got ${t}.`);
    },

    async open({ temperature, signal, onProgress }) {
      const model = resolved();
      onProgress({ fraction: 0, stage: 'checking', text: `Starting llama.cpp for ${model.name}` });
      const c = await connect();
      // A cancelled load stops the download and the worker with it.
      const stop = () => {
        c.cancelDownload();
        c.terminate();
      };
      signal.addEventListener('abort', stop, { once: true });
      try {
        // A copy kept in this browser first, under whichever address it was stored: no network needed.
        const urls =
          (config.noCache ? null : await c.kept(addresses())) ??
          (config.model.kind === 'gguf' ? await localFirst(model.urls, baseURI) : model.urls);
        const info = await c.load(
          { urls, ...(config.noCache ? { noCache: true } : {}) },
          { nCtx: config.nCtx ?? 4096, nThreads: config.nThreads ?? defaultThreads() },
          (loaded, total) =>
            onProgress({
              fraction: total > 0 ? loaded / total : 0,
              stage: 'downloading',
              loadedBytes: loaded,
              text: `Downloading ${model.name}`,
            }),
        );
        const generator = new WllamaGenerator(c, {
          native: model.native,
          temperature,
          seed: config.seed ?? WLLAMA_DEFAULTS.seed,
          maxSegmentTokens: config.maxSegmentTokens ?? WLLAMA_DEFAULTS.maxSegmentTokens,
          nProbs: Math.min(WLLAMA_DEFAULTS.nProbs, info.nVocab),
        });
        onProgress({
          fraction: 1,
          stage: 'ready',
          text: `${model.name} is ready (llama.cpp, ${info.threads} thread${info.threads === 1 ? '' : 's'})`,
        });
        conn = c;
        const terminate = () => {
          if (conn === c) conn = undefined;
          c.terminate();
        };
        return {
          generator,
          runsOn: { engine: 'wllama', label: 'llama.cpp', device: 'cpu', threads: info.threads },
          terminate,
          failed: c.failed,
        };
      } catch (err) {
        c.terminate();
        throw wllamaError(err, 'load');
      } finally {
        signal.removeEventListener('abort', stop);
      }
    },

    // The same check the load makes: "(downloaded)" only when the load would need no network.
    async hasModelInCache() {
      const c = conn ?? (await connect());
      try {
        return (await c.kept(addresses())) !== null;
      } finally {
        if (c !== conn) c.terminate();
      }
    },

    async deleteModel(_choice, unload) {
      const urls = addresses().flat();
      await unload();
      const c = await connect();
      try {
        await c.deleteCached(urls);
      } finally {
        c.terminate();
      }
    },
  };
  return createHandle(driver, hooks, config.temperature ?? WLLAMA_DEFAULTS.temperature);
}

/** The site's own copy (`npm run models -- --gguf <id>` puts it in models/gguf/) when it has every file, else the hub. */
async function localFirst(urls: string[], baseURI: string): Promise<string[]> {
  const local = siteCopy(urls, baseURI);
  try {
    const found = await Promise.all(
      local.map((u) =>
        fetch(u, { method: 'HEAD' }).then((r) => r.ok && !/text\/html/.test(r.headers.get('content-type') ?? '')),
      ),
    );
    return found.every(Boolean) ? local : urls;
  } catch {
    return urls;
  }
}
