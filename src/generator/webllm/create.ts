// The generator as the app uses it: pick a model, load it in its own worker
// with progress and cancel, then answer through the core's Generator and
// Writer ports. web-llm is imported dynamically so first paint never waits
// for its 6 MB, and the worker is created only on load().
import type { AppConfig, InitProgressReport } from '@mlc-ai/web-llm';
import {
  appConfigFor,
  DEFAULT_MODEL_ID,
  LOCAL_PACK_CONFIG,
  pickPrecision,
  resolveModel,
  type LocalPack,
  type ModelChoice,
  type Precision,
  type ResolvedModel,
} from '../catalogue';
import { samplingParams, type ChatEngine } from './engine';
import { EngineGenerator, DEFAULT_OPTIONS } from './decoder';
import { abortError, GeneratorError, workerCrashed } from '../errors';
import type { GeneratorHandle, GeneratorHooks } from '../handle';
import { toLoadProgress } from '../progress';
import { createHandle, type EngineDriver } from '../shared/lifecycle';
import { SAVED_STORAGE_MESSAGE } from '../../saved-storage/protocol';

export interface GeneratorConfig {
  model?: ModelChoice;
  /** 'auto' takes q4f16 when the GPU has shader-f16, else q4f32. */
  precision?: Precision | 'auto';
  /** 0 (default) decodes greedily, so the same question gives the same tree. */
  temperature?: number;
  seed?: number;
  maxSegmentTokens?: number;
  /** 'auto': the site's own model pack when it has the model, else the hub. */
  source?: 'auto' | 'hub' | 'local';
  cacheBackend?: 'cache' | 'indexeddb';
  /** Base for relative URLs; the page's `document.baseURI` by default. */
  baseURI?: string;
  /** A fresh port to the page's saved-storage relay: the model caches are the app site's (Storage Access granted). */
  savedStorage?: () => MessagePort;
}

/** A loaded engine and how to tear it down. */
export interface Connection {
  engine: ChatEngine;
  /** Stops the worker at once (cancel, dispose, after a lost device). */
  terminate(): void;
  /** Rejects if the engine dies on its own (the worker crashed): calls in flight would never settle. */
  failed?: Promise<never>;
}

/** Starts an engine for a model; the default runs web-llm in workers/webllm.worker.ts. */
export type Connect = (
  model: ResolvedModel,
  appConfig: AppConfig,
  onReport: (r: InitProgressReport) => void,
) => { ready: Promise<Connection>; terminate(): void };

export interface WebllmHooks extends GeneratorHooks {
  /** Swaps how the engine is started (tests). */
  connect?: Connect;
  /** Overrides GPU detection (tests); resolves whether the adapter has shader-f16. */
  detectGpu?: () => Promise<{ shaderF16: boolean }>;
}

export function createGenerator(config: GeneratorConfig = {}, hooks: WebllmHooks = {}): GeneratorHandle {
  const choice: ModelChoice = config.model ?? { kind: 'catalogue', id: DEFAULT_MODEL_ID };
  const connect = hooks.connect ?? connectWorker(config.savedStorage);
  const detectGpu = hooks.detectGpu ?? detectWebGpu;
  let resolved: ResolvedModel | undefined;
  const baseURI = (): string =>
    config.baseURI ?? globalThis.document?.baseURI ?? globalThis.location?.href ?? 'http://localhost/';

  // The pack is probed once per page: the model picker resolves every catalogue model to mark the cached ones.
  let packProbe: Promise<LocalPack | undefined> | null = null;
  async function resolve(c: ModelChoice): Promise<{ model: ResolvedModel; appConfig: AppConfig }> {
    const gpu = await detectGpu();
    const precision = pickPrecision(gpu.shaderF16, config.precision ?? 'auto');
    const pack =
      c.kind === 'catalogue' && config.source !== 'hub' ? await (packProbe ??= fetchPack(baseURI())) : undefined;
    let model: ResolvedModel;
    try {
      model = resolveModel(c, precision, baseURI(), pack);
    } catch (e) {
      throw new GeneratorError(
        'bad-config',
        (e as Error).message,
        'Pick a model from the list, or give both URLs of a custom model.',
      );
    }
    if (config.source === 'local' && !model.local && c.kind === 'catalogue') {
      throw new GeneratorError(
        'download',
        `This site does not include the model ${model.modelId}, and it does not download models from elsewhere.`,
        // End users read this; the site's builder finds the command (npm run models -- --generator <id>) in the README.
        'Choose another model in Models, or write no answers: use the passages only.',
      );
    }
    return { model, appConfig: appConfigFor(model, config.cacheBackend) };
  }

  const driver: EngineDriver = {
    get modelId() {
      return resolved?.modelId;
    },
    get native() {
      return resolved?.native ?? (choice.kind === 'custom' && choice.native);
    },
    get local() {
      return resolved?.local ?? false;
    },
    checkTemperature: (t) => void samplingParams({ temperature: t, seed: config.seed ?? DEFAULT_OPTIONS.seed }),

    async open({ temperature, signal, onProgress }) {
      onProgress({ fraction: 0, stage: 'checking', text: 'Checking WebGPU' });
      const { model, appConfig } = await resolve(choice);
      resolved = model;
      if (signal.aborted) throw abortError();
      const started = connect(model, appConfig, (r) => onProgress(toLoadProgress(r)));
      signal.addEventListener('abort', () => started.terminate(), { once: true });
      const conn = await started.ready;
      const generator = new EngineGenerator(conn.engine, {
        native: model.native,
        temperature,
        seed: config.seed ?? DEFAULT_OPTIONS.seed,
        maxSegmentTokens: config.maxSegmentTokens ?? DEFAULT_OPTIONS.maxSegmentTokens,
      });
      onProgress({ fraction: 1, stage: 'ready', text: `${model.modelId} is ready` });
      return {
        generator,
        runsOn: { engine: 'webllm', label: 'web-llm', device: 'webgpu', threads: 1 },
        terminate: conn.terminate,
        ...(conn.failed ? { failed: conn.failed } : {}),
      };
    },

    async hasModelInCache(c = choice) {
      const { model, appConfig } = await resolve(c);
      const webllm = await import('@mlc-ai/web-llm');
      return webllm.hasModelInCache(model.modelId, appConfig);
    },

    async deleteModel(c = choice, unload) {
      const { model, appConfig } = await resolve(c);
      if (resolved?.modelId === model.modelId) await unload();
      const webllm = await import('@mlc-ai/web-llm');
      await webllm.deleteModelAllInfoInCache(model.modelId, appConfig);
    },
  };
  return createHandle(driver, hooks, config.temperature ?? DEFAULT_OPTIONS.temperature);
}

async function fetchPack(base: string): Promise<LocalPack | undefined> {
  try {
    const res = await fetch(new URL(LOCAL_PACK_CONFIG, base));
    if (!res.ok) return undefined;
    const json = (await res.json()) as LocalPack;
    return Array.isArray(json.model_list) ? json : undefined;
  } catch {
    return undefined; // no pack: fall back to the hub
  }
}

interface GpuLike {
  requestAdapter(): Promise<{ features: { has(f: string): boolean } } | null>;
}

async function detectWebGpu(): Promise<{ shaderF16: boolean }> {
  const gpu = (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu;
  const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
  if (!adapter) {
    throw new GeneratorError(
      'no-webgpu',
      'This browser cannot run the language model: WebGPU is not available.',
      'Use a recent Chrome or Edge (or enable WebGPU in your browser), or switch to evidence-only mode, which needs no language model.',
    );
  }
  return { shaderF16: adapter.features.has('shader-f16') };
}

const connectWorker =
  (savedStorage?: () => MessagePort): Connect =>
  (model, appConfig, onReport) => {
    const worker = new Worker(new URL('../../../workers/webllm.worker.ts', import.meta.url), {
      type: 'module',
      name: 'generator',
    });
    const port = savedStorage?.();
    // First, before web-llm's own messages: the worker installs the app site's caches (workers/webllm.worker.ts).
    if (port) worker.postMessage({ kind: SAVED_STORAGE_MESSAGE, port }, [port]);
    let failWorker: (e: unknown) => void = () => {};
    const crashed = new Promise<never>((_, fail) => {
      failWorker = fail;
    });
    crashed.catch(() => {}); // observed by whoever races it; never an unhandled rejection
    worker.addEventListener('error', (e) => failWorker(workerCrashed('web-llm', e.message || 'script error')));
    const ready = (async (): Promise<Connection> => {
      const webllm = await import('@mlc-ai/web-llm');
      const engine = new webllm.WebWorkerMLCEngine(worker, { appConfig, initProgressCallback: onReport });
      await Promise.race([engine.reload(model.modelId), crashed]);
      return { engine, terminate: () => worker.terminate(), failed: crashed };
    })();
    return { ready, terminate: () => worker.terminate() };
  };
