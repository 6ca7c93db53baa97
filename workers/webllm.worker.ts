// The web-llm worker (the WebGPU generator engine): web-llm's own handler speaks web-llm's worker protocol
// to WebWorkerMLCEngine on the main thread (no comlink here: the handler owns
// this worker's messages). Thin: prompts, grammar and slot reading live in
// src/generator on the main thread.
import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import { createEngine } from './webllm/engine-factory';
import { SAVED_STORAGE_MESSAGE } from '../src/saved-storage/protocol';
import { relayedCaches } from './saved-storage/relay';
import { installAsGlobalCaches } from './saved-storage/cache-storage';

const handler = new WebWorkerMLCEngineHandler();
const engine = createEngine();
// The handler wired its progress relay to the engine it built itself; rewire it to ours.
engine.setInitProgressCallback((report) =>
  handler.postMessage({ kind: 'initProgressCallback', uuid: '', content: report }),
);
handler.engine = engine;

// A frame granted Storage Access sends a port to the app site's caches before anything else.
// web-llm reads the global `caches` (its ArtifactCache has no other seam), so the relay becomes
// this worker's `caches`; web-llm's messages wait until it is in place.
let saved: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent) => {
  const data = event.data as { kind?: string; port?: MessagePort } | undefined;
  if (data?.kind === SAVED_STORAGE_MESSAGE && data.port) {
    const port = data.port;
    saved = relayedCaches(port, 'web-llm').then((caches) => caches && installAsGlobalCaches(caches));
    return;
  }
  void saved.then(() => handler.onmessage(event));
};
