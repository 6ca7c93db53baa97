// The comlink surface of workers/evaluator.worker.ts. Both sides import this
// type, so a change here is checked on both ends.
import type { SupProbs } from '../core/ports';
import type { DeviceReport, EvaluatorConfig, EvaluatorModelRole, EvaluatorProgressCallback } from './config';

export interface SupportPair {
  /** The evidence (NLI premise). */
  premise: string;
  /** The text that should follow from it (NLI hypothesis). */
  hypothesis: string;
}

export interface EvaluatorWorkerApi {
  /**
   * Picks the device and configures transformers.js; models load lazily on first use or via `load`.
   * `savedStorage`: a port to the page's saved-storage relay (a cross-site frame granted Storage
   * Access), whose Cache Storage then holds the models instead of this worker's own.
   */
  init(
    config: EvaluatorConfig,
    onProgress?: EvaluatorProgressCallback,
    savedStorage?: MessagePort,
  ): Promise<DeviceReport>;
  load(roles: EvaluatorModelRole[]): Promise<void>;
  /** Passages (the model's passage prefix applied). */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Search queries (the model's query prefix applied). */
  embedQueries(texts: string[]): Promise<Float32Array[]>;
  /** Sigmoid of the cross-encoder's logit, per text. */
  relevance(query: string, texts: string[]): Promise<number[]>;
  support(pairs: SupportPair[]): Promise<SupProbs[]>;
  dispose(): Promise<void>;
}
