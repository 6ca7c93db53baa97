// The messages between the wllama engine (main thread) and workers/wllama.worker.ts.
// Requests are llama-server's JSON bodies: wllama hands them to llama.cpp's own
// request handling unchanged, so every llama-server field (n_probs, grammar,
// cache_prompt, samplers) is available.

/** `noCache`: download into memory instead of wllama's OPFS cache (a page the browser gives no storage). */
export type WllamaModelSource = { blob: Blob } | { urls: string[]; noCache?: boolean };

export interface WllamaLoadOptions {
  nCtx: number;
  nThreads?: number;
  nBatch?: number;
  gpuLayers?: number;
}

export interface WllamaLoadInfo {
  nVocab: number;
  nCtx: number;
  threads: number;
  multiThread: boolean;
  chatTemplate: string | null;
}

/** One generated token with the probabilities llama.cpp reports (`logprobs.content[i]`). */
export interface WllamaTokenLogprob {
  id: number;
  token: string;
  bytes: number[] | null;
  logprob: number;
  top_logprobs: { id: number; token: string; bytes: number[] | null; logprob: number }[];
}

export interface WllamaTimings {
  cache_n: number;
  prompt_n: number;
  predicted_n: number;
  predicted_ms: number;
  prompt_ms: number;
}

export interface WllamaChatChunk {
  choices: {
    delta: { content?: string | null };
    finish_reason: string | null;
    logprobs: { content: WllamaTokenLogprob[] | null } | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  timings?: WllamaTimings;
}

export interface WllamaCompletionResponse {
  choices: { text: string; finish_reason: string | null; logprobs: { content?: WllamaTokenLogprob[] | null } | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  timings?: WllamaTimings;
}

export type WllamaRequest = Record<string, unknown>;

export interface WllamaHost {
  /**
   * A port to the page's saved-storage relay (a cross-site frame granted Storage Access): the
   * GGUF cache becomes the app site's own OPFS cache. Sent before the first load.
   */
  useSavedStorage(port: MessagePort): void;
  load(
    source: WllamaModelSource,
    opts: WllamaLoadOptions,
    onProgress?: (loaded: number, total: number) => void,
  ): Promise<WllamaLoadInfo>;
  /** Token ids spelling each text in the loaded model's vocabulary (null where it cannot). */
  tokenIds(texts: string[]): Promise<(number[] | null)[]>;
  cancelDownload(): void;
  chatStream(id: number, request: WllamaRequest, onChunk: (c: WllamaChatChunk) => void | Promise<void>): Promise<void>;
  complete(id: number, request: WllamaRequest): Promise<WllamaCompletionResponse>;
  abort(id: number): void;
  /** The first of `candidates` (the addresses one model may be stored under) kept whole for offline use (kept.ts); null when none is. */
  kept(candidates: string[][]): Promise<string[] | null>;
  deleteCached(urls: string[]): Promise<void>;
  unload(): Promise<void>;
}
