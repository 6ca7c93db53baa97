// The shape of the services the page needs. services.ts builds the real ones;
// keeping the interface apart lets the UI render before any of them loads.
import type { IndexChoice } from '../../core/vector-index';
import type { AnswerPorts } from './controller';
import type { LibraryActions, LibraryViewState } from '../view/library-panel';
import type { StatusStore } from '../state/worker-status';
import type { ModelChoice } from '../../generator/catalogue';
import type { ModelCacheStore } from '../state/model-downloads';
import type { EngineStore } from '../state/engine-choice';
import type { StoragePlan } from './storage-plan';

export interface WebGpuCheck {
  ok: boolean;
  reason: string;
}

export interface AppServices {
  status: StatusStore;
  library: {
    get(): LibraryViewState;
    subscribe(fn: () => void): () => void;
    actions: LibraryActions;
  };
  ports: AnswerPorts;
  /** Starts loading the generator model (otherwise it loads on the first question). */
  loadGenerator(): void;
  /**
   * Loads the evaluator's models again after a failure (a failed load is not retried on its own),
   * then embeds the documents kept without vectors meanwhile.
   */
  retryEvaluator?(): void;
  /** Stops a model download in progress (files already fetched stay cached). */
  cancelGenerator(): void;
  /** Switches the generator to another model (catalogue or custom); it loads on the next question. */
  selectModel(choice: ModelChoice): void;
  /** Which engine writes answers (Auto, web-llm on WebGPU, llama.cpp on the CPU) and the CPU's GGUF model. */
  engine?: EngineStore;
  /** Sampling temperature for the next calls; the loaded model stays. */
  setTemperature(t: number): void;
  /** Which models this browser has downloaded; deleting one frees its storage. */
  models: ModelCacheStore;
  /**
   * The vector index the library opens with. Only the choice made before the library opens
   * counts (it opens after first paint); a later change takes effect on the next page load.
   */
  selectIndexKind(kind: IndexChoice): void;
  /** The index the library opened (or will open) with. */
  indexKindInUse(): IndexChoice;
  /** Whether a WebGPU adapter exists, and why not. */
  webgpu(): Promise<WebGpuCheck>;
  /** Where this visit keeps the library and models (own, partitioned, shared or memory). */
  storage?: StoragePlan;
  /** Where the library asks, at each batch, whether to keep the added files (the settings' owner answers). */
  followKeepOriginals?(read: () => boolean): void;
  /** Starts the workers: called after the first paint. */
  start(): void;
}
