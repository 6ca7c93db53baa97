// Main-thread handle on the evaluator worker: implements the core's Critic and
// Embedder ports so the core never sees transformers.js.
//
// A model that fails on WebGPU moves to a second worker running on WASM. Not the same
// worker: once a WebGPU kernel throws inside onnxruntime-web, that ORT instance repeats
// the error on every later call, whatever the device (measured in Chromium/SwiftShader).
import * as Comlink from 'comlink';
import type { Critic, Embedder, Passage, RelProbs, SupProbs } from '../core/ports';
import {
  type DeviceReport,
  type EvaluatorConfig,
  type EvaluatorDevice,
  type EvaluatorDeviceCallback,
  type EvaluatorModelRole,
  type EvaluatorProgressCallback,
  isShippedModel,
  type ModelDeviceReport,
  type SourceReport,
} from './config';
import { abortable } from '../core/abortable';
import { cachedScorer, type CachedScorer } from '../core/relevance-cache';
import { withFallback, type FallbackModel } from './fallback';
import { resolveModelSource } from './pack';
import type { EvaluatorWorkerApi } from './protocol';

export interface Evaluator {
  critic: Critic;
  embedder: Embedder;
  /** Device chosen in the worker at start, with the reason (e.g. no WebGPU adapter). */
  device: DeviceReport;
  /**
   * Each model's device as last reported (embedder, reranker, nli): a model that failed on
   * WebGPU moved to WASM and says why. Changes arrive through `createEvaluator`'s `onDevice`.
   */
  models(): ModelDeviceReport[];
  /** Where the models come from (source 'auto' resolved: local pack or hub) and why. */
  source: SourceReport;
  /** Relevance probability (sigmoid of the cross-encoder logit) of each text to the query; CRAG's retrieval evaluator. */
  relevanceScores: CachedScorer;
  /** Load models before their first use (all three by default), reporting progress. */
  preload(roles?: EvaluatorModelRole[]): Promise<void>;
  /**
   * A model whose load failed fails every later call at once with the same error (no fetch per
   * call); this forgets those failures, so the next call or `preload` loads again.
   */
  retry(): void;
  dispose(): void;
}

interface WorkerHandle {
  device: DeviceReport;
  call<T>(work: (api: Comlink.Remote<EvaluatorWorkerApi>) => Promise<T>): Promise<T>;
  terminate(): void;
}

/** A failed worker script load never answers comlink calls: surface it as an error instead. */
function failOnWorkerError(worker: Worker): Promise<never> {
  return new Promise((_, reject) => {
    worker.addEventListener('error', (e: ErrorEvent) => {
      reject(new Error(`The evaluator worker failed to start: ${e.message || 'script error'}`));
    });
  });
}

async function startWorker(
  config: EvaluatorConfig,
  onProgress?: EvaluatorProgressCallback,
  savedStorage?: () => MessagePort,
): Promise<WorkerHandle> {
  // A URL, not an import: Vite finds and bundles the worker only when `new URL(…, import.meta.url)` sits inline in `new Worker`.
  const worker = new Worker(new URL('../../workers/evaluator.worker.ts', import.meta.url), { type: 'module' });
  const api = Comlink.wrap<EvaluatorWorkerApi>(worker);
  const crashed = failOnWorkerError(worker);
  crashed.catch(() => undefined);
  const call = <T>(work: (a: Comlink.Remote<EvaluatorWorkerApi>) => Promise<T>) => Promise.race([work(api), crashed]);
  let ended = false;
  const terminate = () => {
    if (ended) return;
    ended = true;
    api[Comlink.releaseProxy]();
    worker.terminate();
  };
  try {
    const port = savedStorage?.();
    const device = await call((a) =>
      a.init(
        config,
        onProgress ? Comlink.proxy(onProgress) : undefined,
        port ? Comlink.transfer(port, [port]) : undefined,
      ),
    );
    return { device, call, terminate };
  } catch (e) {
    terminate();
    throw e;
  }
}

export interface EvaluatorOptions {
  /** A fresh port to the page's saved-storage relay for each worker (a frame granted Storage Access). */
  savedStorage?: () => MessagePort;
}

/** One model (role) in one worker; loading is idempotent in the worker. */
interface RoleModel {
  ready(): Promise<void>;
  call<T>(work: (api: Comlink.Remote<EvaluatorWorkerApi>) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

/**
 * Starts the evaluator worker. Resolve the config with `resolveEvaluatorConfig(input, document.baseURI)`
 * so local model packs are found from any sub-path; with source 'auto' (the default) the pack is
 * used when it holds the three models, else the hub. `onDevice` hears each model's device once it
 * has loaded, and again if it falls back to WASM.
 */
export async function createEvaluator(
  config: EvaluatorConfig,
  onProgress?: EvaluatorProgressCallback,
  onDevice?: EvaluatorDeviceCallback,
  options: EvaluatorOptions = {},
): Promise<Evaluator> {
  const resolved = await resolveModelSource(config, location.href);
  config = resolved.config;
  const primary = await startWorker(config, onProgress, options.savedStorage);
  let spare: Promise<WorkerHandle> | undefined;
  const wasmWorker = () => {
    spare ??= startWorker({ ...config, device: 'wasm' }, onProgress, options.savedStorage).catch((e: unknown) => {
      spare = undefined;
      throw e;
    });
    return spare;
  };
  const roleIn = (role: EvaluatorModelRole, device: EvaluatorDevice): RoleModel => {
    const worker = () =>
      device === 'wasm' && primary.device.device !== 'wasm' ? wasmWorker() : Promise.resolve(primary);
    return {
      ready: async () => (await worker()).call((a) => a.load([role])),
      call: async (work) => (await worker()).call(work),
      dispose: async () => undefined,
    };
  };

  const reports = new Map<EvaluatorModelRole, ModelDeviceReport>();
  const moved = new Set<EvaluatorModelRole>();
  const heard = (r: ModelDeviceReport) => {
    reports.set(r.role, r);
    // Every model left the WebGPU worker: free its memory.
    if (r.fellBackFrom && moved.add(r.role).size === 3) primary.terminate();
    onDevice?.(r);
  };
  const model = (role: EvaluatorModelRole): FallbackModel<RoleModel> => {
    const shipped = isShippedModel(config[role].id);
    const m = withFallback({
      role,
      model: config[role].id,
      // The site's own critic is int8, which WebGPU does not run: it works in the WASM worker.
      device: shipped ? 'wasm' : primary.device.device,
      reason: shipped ? "The site's own critic runs as int8 on WASM." : primary.device.reason,
      make: (d) => roleIn(role, d),
      onReport: heard,
    });
    reports.set(role, m.report());
    return m;
  };
  const models = { embedder: model('embedder'), reranker: model('reranker'), nli: model('nli') };

  // One memory of (query, passage) scores for the retriever's re-rank, ISREL and CRAG: no pair is scored twice.
  const relevanceScores = cachedScorer((query: string, texts: string[], signal?: AbortSignal) =>
    texts.length === 0
      ? Promise.resolve([])
      : abortable(() => models.reranker.run((m) => m.call((a) => a.relevance(query, texts))), signal),
  );

  const critic: Critic = {
    async relevance(question: string, passages: Passage[], signal?: AbortSignal): Promise<RelProbs[]> {
      const p = await relevanceScores(
        question,
        passages.map((x) => x.text),
        signal,
      );
      return p.map((relevant) => ({ relevant, irrelevant: 1 - relevant }));
    },
    support(pairs, signal): Promise<SupProbs[]> {
      if (pairs.length === 0) return Promise.resolve([]);
      const plain = pairs.map((x) => ({ premise: x.passage.text, hypothesis: x.text }));
      return abortable(() => models.nli.run((m) => m.call((a) => a.support(plain))), signal);
    },
  };

  const embedder: Embedder = {
    embed: (texts, signal) =>
      texts.length === 0
        ? Promise.resolve([])
        : abortable(() => models.embedder.run((m) => m.call((a) => a.embed(texts))), signal),
    embedQueries: (texts, signal) =>
      texts.length === 0
        ? Promise.resolve([])
        : abortable(() => models.embedder.run((m) => m.call((a) => a.embedQueries(texts))), signal),
  };

  return {
    critic,
    embedder,
    device: primary.device,
    source: resolved.source,
    models: () => [...reports.values()],
    relevanceScores,
    preload: (roles = ['embedder', 'reranker', 'nli']) =>
      Promise.all(roles.map((r) => models[r].ready())).then(() => undefined),
    retry() {
      for (const m of Object.values(models)) m.retry();
    },
    dispose() {
      primary.terminate();
      void spare?.then(
        (w) => w.terminate(),
        () => undefined,
      );
    },
  };
}
