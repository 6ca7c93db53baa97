// Which models this browser holds for offline use: the offline panel's store. The list itself is read
// from the caches the model libraries fill (app/browser/cached-models.ts), loaded when first asked
// (wiring/offline-inventory.ts refreshes it).

export interface CachedModels {
  /** Evaluator model ids with an ONNX weight file cached (hub ids or pack folders such as 'tiny/embedder'). */
  evaluator: string[];
  /** web-llm model ids whose weight manifest is cached, then the GGUF files llama.cpp keeps whole. */
  generator: string[];
}

export interface CachedModelsStore {
  get(): CachedModels | null;
  subscribe(fn: () => void): () => void;
  refresh(): Promise<void>;
}
