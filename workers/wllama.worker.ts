// The wllama worker: llama.cpp compiled to WebAssembly, behind comlink. Thin:
// prompts, grammars and slot reading live in src/generator on the main thread.
// wllama starts its own inner worker from a blob: URL; this one keeps its
// JavaScript (parsing, OPFS, JSON) off the page's thread too.
import * as Comlink from 'comlink';
import { createWllamaHost } from './wllama/host';

Comlink.expose(createWllamaHost());
