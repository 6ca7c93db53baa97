// The generator handle over llama.cpp (wllama): the same GeneratorHandle the
// app gets for web-llm, so the decode loop, the UI and the status panel do not
// know which engine answers. wllama, its worker and its wasm load only here.
import type { GeneratorCost } from '../core/ports';
import type { GeneratorHandle, GeneratorHooks, GeneratorState } from './create-generator';
import { classifyError, GeneratorError } from './errors';
import { resolveGguf, type GgufChoice } from './gguf-catalogue';
import type { WllamaConnection } from './wllama-client';
import { WllamaGenerator, WLLAMA_DEFAULTS } from './wllama-generator';
import { addCost, forwardPorts } from './forward-ports';

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
}

export function defaultThreads(): number {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return isolated ? Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 1)) : 1;
}

export function createWllamaGenerator(config: WllamaConfig, hooks: Pick<GeneratorHooks, 'onProgress' | 'onState'> & { connect?: () => WllamaConnection } = {}): GeneratorHandle & { threads(): number } {
  const baseURI = config.baseURI ?? globalThis.document?.baseURI ?? 'http://localhost/';
  let state: GeneratorState = 'idle';
  let conn: WllamaConnection | undefined;
  let gen: WllamaGenerator | undefined;
  let threads = 0;
  let temperature = config.temperature ?? 0;
  let cancelled: (() => void) | undefined;
  const spentBefore: GeneratorCost = { promptTokens: 0, decodedTokens: 0, calls: 0 };
  const setState = (s: GeneratorState, e?: GeneratorError) => {
    state = s;
    hooks.onState?.(s, e);
  };
  const resolved = () => {
    try {
      return resolveGguf(config.model, baseURI);
    } catch (e) {
      throw new GeneratorError('bad-config', (e as Error).message, 'Pick a model from the list, or give an https address ending in .gguf.');
    }
  };
  const use = async <T>(run: (g: WllamaGenerator) => Promise<T>): Promise<T> => {
    if (!gen || state !== 'ready') throw new GeneratorError('bad-config', 'The language model is not loaded.', 'Load a model first, or use evidence-only mode.');
    try {
      return await Promise.race([run(gen), conn!.failed]);
    } catch (err) {
      const e = classifyError(err);
      if (/crashed/.test(e.detail ?? e.message)) {
        close();
        setState('failed', e);
      }
      throw e.kind === 'cancelled' ? err : e;
    }
  };
  const close = () => {
    if (gen) addCost(spentBefore, gen.cost());
    conn?.terminate();
    conn = undefined;
    gen = undefined;
  };
  const connect = async (): Promise<WllamaConnection> => (hooks.connect ?? (await import('./wllama-client')).connectWllama)();

  const handle: GeneratorHandle & { threads(): number } = {
    get state() {
      return state;
    },
    get modelId() {
      return resolved().name;
    },
    get native() {
      return resolved().native;
    },
    get local() {
      return resolved().urls.every((u) => new URL(u).origin === new URL(baseURI).origin);
    },
    threads: () => threads,
    async load() {
      if (state === 'ready') return;
      if (state === 'loading') throw new GeneratorError('bad-config', 'The model is already loading.', 'Wait for it, or cancel first.');
      setState('loading');
      try {
        const model = resolved();
        hooks.onProgress?.({ fraction: 0, stage: 'checking', text: `Starting llama.cpp for ${model.name}` });
        const c = await connect();
        conn = c;
        const stopped = new Promise<never>((_, reject) => {
          cancelled = () => reject(new GeneratorError('cancelled', 'Loading the model was cancelled.', 'Load it again when ready; files already downloaded stay in the browser storage.'));
        });
        const info = await Promise.race([
          c.load({ urls: config.model.kind === 'gguf' ? await localFirst(model.urls, baseURI) : model.urls, ...(config.noCache ? { noCache: true } : {}) }, { nCtx: config.nCtx ?? 4096, nThreads: config.nThreads ?? defaultThreads() }, (loaded, total) =>
            hooks.onProgress?.({ fraction: total > 0 ? loaded / total : 0, stage: 'downloading', loadedBytes: loaded, text: `Downloading ${model.name}` }),
          ),
          stopped,
        ]);
        threads = info.threads;
        gen = new WllamaGenerator(c, {
          native: model.native,
          temperature,
          seed: config.seed ?? WLLAMA_DEFAULTS.seed,
          maxSegmentTokens: config.maxSegmentTokens ?? WLLAMA_DEFAULTS.maxSegmentTokens,
          nProbs: Math.min(WLLAMA_DEFAULTS.nProbs, info.nVocab),
        });
        hooks.onProgress?.({ fraction: 1, stage: 'ready', text: `${model.name} is ready (llama.cpp, ${info.threads} thread${info.threads === 1 ? '' : 's'})` });
        setState('ready');
      } catch (err) {
        const e = loadError(err);
        close();
        setState(e.kind === 'cancelled' ? 'idle' : 'failed', e);
        throw e;
      } finally {
        cancelled = undefined;
      }
    },
    cancelLoad() {
      conn?.cancelDownload();
      cancelled?.();
    },
    async hasModelInCache() {
      const c = conn ?? (await connect());
      try {
        return await c.cached(resolved().urls);
      } finally {
        if (c !== conn) c.terminate();
      }
    },
    async deleteModel() {
      const urls = resolved().urls;
      await handle.dispose();
      const c = await connect();
      try {
        await c.deleteCached(urls);
      } finally {
        c.terminate();
      }
    },
    setTemperature(t) {
      temperature = t;
      gen?.setTemperature(t);
    },
    interrupt() {
      gen?.interrupt();
    },
    async dispose() {
      handle.cancelLoad();
      close();
      if (state !== 'idle') setState('idle');
    },
    ...forwardPorts(use, () => gen, spentBefore),
  };
  return handle;
}

/** The site's own copy (`npm run models -- --gguf <id>` puts it in models/gguf/) when it has every file, else the hub. */
async function localFirst(urls: string[], baseURI: string): Promise<string[]> {
  const local = urls.map((u) => new URL(`models/gguf/${new URL(u).pathname.split('/').pop()}`, baseURI).href);
  try {
    const found = await Promise.all(local.map((u) => fetch(u, { method: 'HEAD' }).then((r) => r.ok && !/text\/html/.test(r.headers.get('content-type') ?? ''))));
    return found.every(Boolean) ? local : urls;
  } catch {
    return urls;
  }
}


/** wllama reports a failed load as a bare "(ABORT)"; the worker appends llama.cpp's own words. */
function loadError(err: unknown): GeneratorError {
  const e = classifyError(err);
  if (e.kind !== 'unknown') return e;
  const text = e.detail ?? e.message;
  if (/compat|JSPI|Memory64|memory64/i.test(text)) {
    return new GeneratorError('no-webgpu', 'This browser cannot run llama.cpp here: it lacks WebAssembly Memory64 or JSPI.', 'Use a recent Chrome or Edge, or evidence-only mode.', text);
  }
  if (/gguf|magic|tensor|vocab|failed to load model|ABORT/i.test(text)) {
    return new GeneratorError('bad-config', 'The GGUF model could not be loaded (the file is damaged, incomplete or not a model llama.cpp knows).', 'Choose another model, download it again, or use evidence-only mode.', text);
  }
  return e;
}
