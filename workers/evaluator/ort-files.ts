// The onnxruntime-web wasm and its mjs loader as files of this app (Vite emits them
// as assets), so the evaluator never fetches them from transformers.js' default CDN.
// Browser only: Node runs onnxruntime-node. The asyncify pair is the one the
// WebGPU bundle of onnxruntime-web that transformers.js imports expects.
import mjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import wasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';

export const ortWasmFiles = { mjs, wasm };
