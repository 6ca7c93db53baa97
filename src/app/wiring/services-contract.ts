// The shape of the services the page needs. services.ts builds the real ones;
// keeping the interface apart lets the UI render before any of them loads.
import type { IndexChoice } from '../../vector/vector-index';
import type { AnswerPorts } from './controller';
import type { LibraryActions } from '../view/library-panel';
import type { LibraryViewState } from '../state/library';
import type { StatusStore } from '../state/worker-status';
import type { ModelCacheStore } from '../state/model-downloads';
import type { EngineStore } from '../state/engine-state';
import type { StoragePlan } from './storage-plan';
import type { SettingsSource } from './settings-source';
import type { WebGpuCheck } from '../browser/webgpu';

export interface AppServices {
  status: StatusStore;
  library: {
    get(): LibraryViewState;
    subscribe(fn: () => void): () => void;
    actions: LibraryActions;
  };
  ports: AnswerPorts;
  /**
   * Hands the services the user's settings (the controller's, their one owner): the generator
   * follows the model, engine and temperature from then on; the library opens with the index kind.
   * Before this, the defaults apply.
   */
  follow(settings: SettingsSource): void;
  /** Starts loading the generator model (otherwise it loads on the first question). */
  loadGenerator(): void;
  /**
   * Loads the evaluator's models again after a failure (a failed load is not retried on its own),
   * then embeds the documents kept without vectors meanwhile.
   */
  retryEvaluator?(): void;
  /** Stops a model download in progress (files already fetched stay cached). */
  cancelGenerator(): void;
  /** Which engine writes answers (Auto, web-llm on WebGPU, llama.cpp on the CPU) and the CPU's GGUF model. */
  engine?: EngineStore;
  /** Which models this browser has downloaded; deleting one frees its storage. */
  models: ModelCacheStore;
  /**
   * The index the library opened (or will open) with: the settings' choice when it opened (after
   * first paint); a later change takes effect on the next page load.
   */
  indexKindInUse(): IndexChoice;
  /** Whether a WebGPU adapter exists, and why not. */
  webgpu(): Promise<WebGpuCheck>;
  /** Where this visit keeps the library and models (own, partitioned, shared or memory). */
  storage?: StoragePlan;
  /** Starts the workers: called after the first paint. */
  start(): void;
}
