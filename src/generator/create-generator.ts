// The generator as the app uses it: pick a model, load it in its own worker
// with progress and cancel, then answer through the core's Generator and
// Writer ports. web-llm is imported dynamically so first paint never waits
// for its 6 MB, and the worker is created only on load().
import type { AppConfig, InitProgressReport } from '@mlc-ai/web-llm';
import type { GeneratedSegment, GeneratorCost, RetrievalDecisionRequest, RetrieveProbs, SegmentRequest } from '../core/ports';
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
} from './catalogue';
import { samplingParams, type ChatEngine } from './engine';
import { EngineGenerator, DEFAULT_OPTIONS } from './engine-generator';
import { classifyError, GeneratorError } from './errors';
import { toLoadProgress, type LoadProgress } from './progress';
import { addCost, forwardPorts } from './forward-ports';

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
}

export type GeneratorState = 'idle' | 'loading' | 'ready' | 'failed';

/** A loaded engine and how to tear it down. */
export interface Connection {
  engine: ChatEngine;
  /** Stops the worker at once (cancel, dispose, after a lost device). */
  terminate(): void;
  /** Rejects if the engine dies on its own (the worker crashed): calls in flight would never settle. */
  failed?: Promise<never>;
}

/** Starts an engine for a model; the default runs web-llm in workers/generator.worker.ts. */
export type Connect = (
  model: ResolvedModel,
  appConfig: AppConfig,
  onReport: (r: InitProgressReport) => void,
) => { ready: Promise<Connection>; terminate(): void };

export interface GeneratorHooks {
  onProgress?: (p: LoadProgress) => void;
  /** Called whenever `state` changes (e.g. to 'failed' after a lost GPU device). */
  onState?: (state: GeneratorState, error?: GeneratorError) => void;
  /** Swaps how the engine is started (tests). */
  connect?: Connect;
  /** Overrides GPU detection (tests); resolves whether the adapter has shader-f16. */
  detectGpu?: () => Promise<{ shaderF16: boolean }>;
}

export interface GeneratorHandle {
  readonly state: GeneratorState;
  /** The engine model id once resolved (e.g. 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC'). */
  readonly modelId: string | undefined;
  readonly native: boolean;
  /** Set when the model is served by the site's own model pack. */
  readonly local: boolean;
  load(): Promise<void>;
  cancelLoad(): void;
  hasModelInCache(choice?: ModelChoice): Promise<boolean>;
  /** Changes sampling for the next calls without reloading the model (0 = greedy with the fixed seed). */
  setTemperature(temperature: number): void;
  deleteModel(choice?: ModelChoice): Promise<void>;
  /** Stops the current decode; the engine stays loaded and ready for the next question. */
  interrupt(): void;
  dispose(): Promise<void>;
  // Generator and Writer ports
  decideRetrieval(req: RetrievalDecisionRequest): Promise<RetrieveProbs>;
  generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]>;
  write(instruction: string, opts?: { maxTokens?: number; signal?: AbortSignal }): Promise<string>;
  cost(): GeneratorCost;
  resetCost(): void;
}

export function createGenerator(config: GeneratorConfig = {}, hooks: GeneratorHooks = {}): GeneratorHandle {
  const choice: ModelChoice = config.model ?? { kind: 'catalogue', id: DEFAULT_MODEL_ID };
  const connect = hooks.connect ?? connectWorker;
  const detectGpu = hooks.detectGpu ?? detectWebGpu;
  let state: GeneratorState = 'idle';
  let resolved: ResolvedModel | undefined;
  let connection: Connection | undefined;
  let pending: { terminate(): void; reject(e: GeneratorError): void } | undefined;
  let cancelled = false; // cancelLoad() before the worker exists
  let generator: EngineGenerator | undefined;
  let temperature = config.temperature ?? DEFAULT_OPTIONS.temperature;
  const spentBefore: GeneratorCost = { promptTokens: 0, decodedTokens: 0, calls: 0 };

  const setState = (s: GeneratorState, err?: GeneratorError): void => {
    state = s;
    hooks.onState?.(s, err);
  };
  const baseURI = (): string => config.baseURI ?? globalThis.document?.baseURI ?? globalThis.location?.href ?? 'http://localhost/';

  // The pack is probed once per page: the model picker resolves every catalogue model to mark the cached ones.
  let packProbe: Promise<LocalPack | undefined> | null = null;
  async function resolve(c: ModelChoice): Promise<{ model: ResolvedModel; appConfig: AppConfig }> {
    const gpu = await detectGpu();
    const precision = pickPrecision(gpu.shaderF16, config.precision ?? 'auto');
    const pack = c.kind === 'catalogue' && config.source !== 'hub' ? await (packProbe ??= fetchPack(baseURI())) : undefined;
    let model: ResolvedModel;
    try {
      model = resolveModel(c, precision, baseURI(), pack);
    } catch (e) {
      throw new GeneratorError('bad-config', (e as Error).message, 'Pick a model from the list, or give both URLs of a custom model.');
    }
    if (config.source === 'local' && !model.local && c.kind === 'catalogue') {
      throw new GeneratorError(
        'download',
        `The site's model pack does not include ${model.modelId}.`,
        `Run \`npm run models -- --generator ${c.id}\` before building, or allow downloads from the hub.`,
      );
    }
    return { model, appConfig: appConfigFor(model, config.cacheBackend) };
  }

  // Calls in flight when the worker is stopped would wait forever for its reply.
  let closing = new Set<(e: GeneratorError) => void>();
  function closeConnection(reason = UNLOADED()): void {
    connection?.terminate();
    connection = undefined;
    generator = undefined;
    const waiting = closing;
    closing = new Set();
    waiting.forEach((stop) => stop(reason));
  }

  /** Every port call goes through here so a lost device leaves a clear state instead of a stuck page. */
  async function use<T>(run: (g: EngineGenerator) => Promise<T>): Promise<T> {
    if (!generator || state !== 'ready') {
      throw new GeneratorError('bad-config', 'The language model is not loaded.', 'Load a model first, or use evidence-only mode.');
    }
    try {
      let stop!: (e: GeneratorError) => void;
      const stopped = new Promise<never>((_, reject) => (stop = reject));
      closing.add(stop);
      try {
        return await Promise.race([run(generator), stopped, ...(connection?.failed ? [connection.failed] : [])]);
      } finally {
        closing.delete(stop);
      }
    } catch (err) {
      const e = classifyError(err);
      if (e.kind === 'device-lost' || e.kind === 'out-of-memory') {
        if (generator) addCost(spentBefore, generator.cost());
        closeConnection(e);
        setState('failed', e);
      }
      throw e.kind === 'cancelled' ? err : e;
    }
  }

  const handle: GeneratorHandle = {
    get state() {
      return state;
    },
    get modelId() {
      return resolved?.modelId;
    },
    get native() {
      return resolved?.native ?? (choice.kind === 'custom' && choice.native);
    },
    get local() {
      return resolved?.local ?? false;
    },

    async load() {
      if (state === 'ready') return;
      if (state === 'loading') throw new GeneratorError('bad-config', 'The model is already loading.', 'Wait for it, or cancel first.');
      setState('loading');
      try {
        hooks.onProgress?.({ fraction: 0, stage: 'checking', text: 'Checking WebGPU' });
        cancelled = false;
        const { model, appConfig } = await resolve(choice);
        resolved = model;
        if (cancelled) throw CANCELLED();
        const started = connect(model, appConfig, (r) => hooks.onProgress?.(toLoadProgress(r)));
        const conn = await new Promise<Connection>((ok, fail) => {
          pending = { terminate: started.terminate, reject: fail };
          started.ready.then(ok, (e: unknown) => fail(classifyError(e)));
        });
        pending = undefined;
        connection = conn;
        generator = new EngineGenerator(conn.engine, {
          native: model.native,
          temperature,
          seed: config.seed ?? DEFAULT_OPTIONS.seed,
          maxSegmentTokens: config.maxSegmentTokens ?? DEFAULT_OPTIONS.maxSegmentTokens,
        });
        hooks.onProgress?.({ fraction: 1, stage: 'ready', text: `${model.modelId} is ready` });
        setState('ready');
      } catch (err) {
        pending = undefined;
        const e = classifyError(err);
        closeConnection();
        setState(e.kind === 'cancelled' ? 'idle' : 'failed', e);
        throw e;
      }
    },

    cancelLoad() {
      if (state === 'loading') cancelled = true;
      if (!pending) return;
      pending.terminate();
      pending.reject(CANCELLED());
      pending = undefined;
    },

    async hasModelInCache(c = choice) {
      const { model, appConfig } = await resolve(c);
      const webllm = await import('@mlc-ai/web-llm');
      return webllm.hasModelInCache(model.modelId, appConfig);
    },

    async deleteModel(c = choice) {
      const { model, appConfig } = await resolve(c);
      if (resolved?.modelId === model.modelId) await handle.dispose();
      const webllm = await import('@mlc-ai/web-llm');
      await webllm.deleteModelAllInfoInCache(model.modelId, appConfig);
    },

    setTemperature(t) {
      samplingParams({ temperature: t, seed: config.seed ?? DEFAULT_OPTIONS.seed });
      temperature = t;
      generator?.setTemperature(t);
    },

    interrupt() {
      connection?.engine.interruptGenerate();
    },

    async dispose() {
      handle.cancelLoad();
      if (generator) addCost(spentBefore, generator.cost());
      closeConnection();
      if (state !== 'idle') setState('idle');
    },

    ...forwardPorts(use, () => generator, spentBefore),
  };
  return handle;
}

const UNLOADED = (): GeneratorError =>
  new GeneratorError('cancelled', 'The language model was unloaded while it was answering.', 'Load it again to continue.');

const CANCELLED = (): GeneratorError =>
  new GeneratorError('cancelled', 'Loading the model was cancelled.', 'Load it again when ready; files already downloaded stay in the browser cache.');


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

const connectWorker: Connect = (model, appConfig, onReport) => {
  const worker = new Worker(new URL('../../workers/generator.worker.ts', import.meta.url), { type: 'module', name: 'generator' });
  let failWorker: (e: unknown) => void = () => {};
  const crashed = new Promise<never>((_, fail) => {
    failWorker = fail;
  });
  crashed.catch(() => {}); // observed by whoever races it; never an unhandled rejection
  worker.addEventListener('error', (e) => failWorker(new Error(`The generator worker crashed (often it ran out of memory): ${e.message || 'script error'}`)));
  const ready = (async (): Promise<Connection> => {
    const webllm = await import('@mlc-ai/web-llm');
    const engine = new webllm.WebWorkerMLCEngine(worker, { appConfig, initProgressCallback: onReport });
    await Promise.race([engine.reload(model.modelId), crashed]);
    return { engine, terminate: () => worker.terminate(), failed: crashed };
  })();
  return { ready, terminate: () => worker.terminate() };
};
