// The messages between the page, which holds the Storage Access handle, and the model workers,
// which cannot: the handle's Cache Storage and OPFS directory (the app site's own) exist only in
// the document. One MessagePort per worker, spoken with comlink. Bodies travel as transferred
// ArrayBuffers (a Response is not cloneable), files as Blobs (cloned by reference, not copied) and
// a file being written as a transferred stream, so a model shard of tens of MB is never copied
// on the way beyond what reading it takes.

export interface RelayedResponse {
  body: ArrayBuffer;
  status: number;
  statusText: string;
  headers: [string, string][];
}

/** What the grant holds; a kind not granted says why, so a worker can tell the visitor. */
export interface SavedStorageKinds {
  caches: true | string;
  files: true | string;
}

export interface SavedStorageRelay {
  kinds(): Promise<SavedStorageKinds>;
  // Cache Storage (transformers.js' `transformers-cache`, web-llm's `webllm/*`). Keys are absolute URLs.
  cacheNames(): Promise<string[]>;
  hasCache(cache: string): Promise<boolean>;
  deleteCache(cache: string): Promise<boolean>;
  match(cache: string, url: string): Promise<RelayedResponse | undefined>;
  put(cache: string, url: string, response: RelayedResponse): Promise<void>;
  keys(cache: string): Promise<string[]>;
  delete(cache: string, url: string): Promise<boolean>;
  // Files in the `cache` folder of the site's OPFS root: wllama's own layout (its OPFSBackend).
  readFile(key: string): Promise<Blob | null>;
  writeFile(key: string, stream: ReadableStream<Uint8Array>): Promise<void>;
  fileSize(key: string): Promise<number>;
  listFiles(): Promise<{ key: string; size: number }[]>;
  deleteFile(key: string): Promise<void>;
}

/** The folder wllama keeps its models in, under the OPFS root (wllama 3.8 `getCacheDir`). */
export const WLLAMA_CACHE_DIR = 'cache';

/** The message that hands the web-llm worker its port (that worker's messages belong to web-llm's handler). */
export const SAVED_STORAGE_MESSAGE = 'selfrag:saved-storage';
