// The generator worker: web-llm's own handler speaks web-llm's worker protocol
// to WebWorkerMLCEngine on the main thread (no comlink here: the handler owns
// this worker's messages). Thin: prompts, grammar and slot reading live in
// src/generator on the main thread.
import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import { createEngine } from './generator/engine-factory';

const handler = new WebWorkerMLCEngineHandler();
const engine = createEngine();
// The handler wired its progress relay to the engine it built itself; rewire it to ours.
engine.setInitProgressCallback((report) => handler.postMessage({ kind: 'initProgressCallback', uuid: '', content: report }));
handler.engine = engine;

self.onmessage = (event: MessageEvent) => handler.onmessage(event);
