// The engine picker's state: the choice in effect, the engine that answers once 'auto' is
// resolved, and whether the chosen GGUF model is downloaded. The choice itself is a setting
// (persist/engine-choice.ts), changed through the controller.
import type { EngineChoice } from '../persist/engine-choice';

export interface EngineState {
  choice: EngineChoice;
  /** The engine answering (after 'auto' was resolved), once known. */
  inUse?: 'webllm' | 'wllama';
  /** Whether the chosen GGUF model is in this browser's storage (null: not checked or unknown). */
  ggufCached: boolean | null;
}

/** The engine picker's state, for the UI (a tiny observable store). The choice itself is a setting: `controller.change({ engine })`. */
export interface EngineStore {
  get(): EngineState;
  subscribe(fn: () => void): () => void;
  /** Checks whether the chosen GGUF model is downloaded. */
  refresh(): Promise<void>;
  /** Deletes the chosen GGUF model from this browser's storage (unloading it first). */
  remove(): Promise<void>;
}
