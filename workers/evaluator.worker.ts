// The evaluator worker: embeddings, cross-encoder relevance and NLI support over
// transformers.js, exposed with comlink. Thin: every model detail lives in
// ./evaluator/*. transformers.js is imported lazily (see runtime.ts).
import * as Comlink from 'comlink';
import type {
  DeviceReport,
  EvaluatorConfig,
  EvaluatorModelRole,
  EvaluatorProgressCallback,
} from '../src/evaluator/config';
import type { EvaluatorWorkerApi } from '../src/evaluator/protocol';
import { pickDevice } from './evaluator/device';
import { createEmbedder, type LoadedEmbedder } from './evaluator/embedder';
import { createSupportModel, type SupportModel } from './evaluator/nli';
import { createReranker, type Reranker } from './evaluator/reranker';
import { ortWasmFiles } from './evaluator/ort-files';
import type { RuntimeOptions } from './evaluator/runtime';
import { relayedCaches } from './saved-storage/relay';

/** transformers.js' Cache Storage name (its `env.cacheKey`), the one the page's model inventory reads. */
const TRANSFORMERS_CACHE = 'transformers-cache';

/** The app site's model cache through the page's relay; without one, the worker's own (or none). */
async function savedCache(port: MessagePort | undefined) {
  const caches = port ? await relayedCaches(port, 'evaluator') : undefined;
  return caches?.open(TRANSFORMERS_CACHE);
}

interface Models {
  embedder: LoadedEmbedder;
  reranker: Reranker;
  nli: SupportModel;
}

let models: Models | undefined;

function need(): Models {
  if (!models) throw new Error('The evaluator worker was used before init().');
  return models;
}

async function disposeAll(): Promise<void> {
  const m = models;
  models = undefined;
  if (m) await Promise.all([m.embedder.dispose(), m.reranker.dispose(), m.nli.dispose()]);
}

const api: EvaluatorWorkerApi = {
  async init(
    config: EvaluatorConfig,
    onProgress?: EvaluatorProgressCallback,
    savedStorage?: MessagePort,
  ): Promise<DeviceReport> {
    await disposeAll();
    const [device, cache] = await Promise.all([pickDevice(config.device), savedCache(savedStorage)]);
    const runtime: RuntimeOptions = {
      source: config.source,
      device: device.device,
      ...(config.localModelPath !== undefined ? { localModelPath: config.localModelPath } : {}),
      ...(config.shippedModelPath !== undefined ? { shippedModelPath: config.shippedModelPath } : {}),
      wasmPaths: config.wasmPaths ?? ortWasmFiles,
      ...(config.batchSize !== undefined ? { batchSize: config.batchSize } : {}),
      ...(config.threads !== undefined ? { threads: config.threads } : {}),
      ...(onProgress ? { onProgress } : {}),
      ...(cache ? { cache } : {}),
    };
    models = {
      embedder: createEmbedder({ ...runtime, model: config.embedder }),
      reranker: createReranker({ ...runtime, model: config.reranker }),
      nli: createSupportModel({ ...runtime, model: config.nli }),
    };
    return device;
  },
  async load(roles: EvaluatorModelRole[]) {
    const m = need();
    await Promise.all(roles.map((r) => m[r].ready()));
  },
  async embed(texts) {
    const vectors = await need().embedder.embed(texts);
    return Comlink.transfer(
      vectors,
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  },
  async embedQueries(texts) {
    const vectors = await need().embedder.embedQueries(texts);
    return Comlink.transfer(
      vectors,
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  },
  relevance: (query, texts) => need().reranker.score(query, texts),
  support: (pairs) => need().nli.support(pairs),
  dispose: disposeAll,
};

Comlink.expose(api);
