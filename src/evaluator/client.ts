// Main-thread handle on the evaluator worker: implements the core's Critic and
// Embedder ports so the core never sees transformers.js.
import * as Comlink from 'comlink';
import type { Critic, Embedder, Passage, RelProbs, SupProbs } from '../core/ports';
import type { DeviceReport, EvaluatorConfig, EvaluatorModelRole, EvaluatorProgressCallback } from './config';
import { abortable } from './abortable';
import type { EvaluatorWorkerApi } from './protocol';

export interface Evaluator {
  critic: Critic;
  embedder: Embedder;
  /** Device chosen in the worker, with the reason (e.g. no WebGPU adapter). */
  device: DeviceReport;
  /** Relevance probability (sigmoid of the cross-encoder logit) of each text to the query; CRAG's retrieval evaluator. */
  relevanceScores(query: string, texts: string[], signal?: AbortSignal): Promise<number[]>;
  /** Load models before their first use (all three by default), reporting progress. */
  preload(roles?: EvaluatorModelRole[]): Promise<void>;
  dispose(): void;
}

/** A failed worker script load never answers comlink calls: surface it as an error instead. */
function failOnWorkerError(worker: Worker): Promise<never> {
  return new Promise((_, reject) => {
    worker.addEventListener('error', (e: ErrorEvent) => {
      reject(new Error(`The evaluator worker failed to start: ${e.message || 'script error'}`));
    });
  });
}

/**
 * Starts the evaluator worker. Resolve the config with `resolveEvaluatorConfig(input, document.baseURI)`
 * so local model packs are found from any sub-path.
 */
export async function createEvaluator(config: EvaluatorConfig, onProgress?: EvaluatorProgressCallback): Promise<Evaluator> {
  const worker = new Worker(new URL('../../workers/evaluator.worker.ts', import.meta.url), { type: 'module' });
  const api = Comlink.wrap<EvaluatorWorkerApi>(worker);
  const crashed = failOnWorkerError(worker);
  crashed.catch(() => undefined);
  const call = <T>(work: () => Promise<T>, signal?: AbortSignal) =>
    Promise.race([abortable(work, signal), crashed]);

  let device: DeviceReport;
  try {
    device = await call(() => api.init(config, onProgress ? Comlink.proxy(onProgress) : undefined));
  } catch (e) {
    worker.terminate();
    throw e;
  }

  const relevanceScores = (query: string, texts: string[], signal?: AbortSignal) =>
    texts.length === 0 ? Promise.resolve([]) : call(() => api.relevance(query, texts), signal);

  const critic: Critic = {
    async relevance(question: string, passages: Passage[], signal?: AbortSignal): Promise<RelProbs[]> {
      const p = await relevanceScores(question, passages.map((x) => x.text), signal);
      return p.map((relevant) => ({ relevant, irrelevant: 1 - relevant }));
    },
    support(pairs, signal): Promise<SupProbs[]> {
      if (pairs.length === 0) return Promise.resolve([]);
      return call(() => api.support(pairs.map((x) => ({ premise: x.passage.text, hypothesis: x.text }))), signal);
    },
  };

  const embedder: Embedder = {
    embed: (texts, signal) => (texts.length === 0 ? Promise.resolve([]) : call(() => api.embed(texts), signal)),
  };

  return {
    critic,
    embedder,
    device,
    relevanceScores,
    preload: (roles = ['embedder', 'reranker', 'nli']) => call(() => api.load(roles)),
    dispose() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
