// Root cause of the evaluator failing on WebGPU in the app (SwiftShader: "setPipeline …
// not of type GPUComputePipeline", "memory access out of bounds", "unaligned accesses"):
// transformers.js queues session creations in one chain and session runs in ANOTHER
// (backends/onnx.js webInitChain / webInferenceChain), so a model's session can be created
// while another model runs. ORT-web's WebGPU build (JSEP, asyncify) cannot interleave those.
// The app does exactly that: decode asks relevance and support at once, so the NLI model
// loads while the cross-encoder runs. Putting create, run and release of every session in
// this worker through one queue fixes it; downloads stay parallel (they happen before create).
import type { Serial } from './serial';
import { serialQueue } from './serial';

type Ort = typeof import('onnxruntime-web/webgpu');

interface SessionClass {
  create(...args: unknown[]): Promise<unknown>;
  prototype: { run(...args: unknown[]): Promise<unknown>; release(): Promise<void> };
}

const PATCHED = Symbol.for('selfrag.ort-serial');

/**
 * Serialises every ORT session call of this realm. Returns false when transformers.js does not
 * share our onnxruntime-web instance (a bundling change): then nothing is serialised and the
 * per-model WASM fallback is what keeps the evaluator working.
 */
export function serialiseOrt(ort: Ort, transformersOnnxEnv: { wasm?: unknown } | undefined): boolean {
  // transformers.js exposes a shallow copy of ORT's env, whose `wasm` object is ORT's own.
  if (!transformersOnnxEnv?.wasm || ort.env.wasm !== transformersOnnxEnv.wasm) return false;
  const Session = ort.InferenceSession as unknown as SessionClass & { [PATCHED]?: true };
  if (Session[PATCHED]) return true;
  const queue: Serial = serialQueue();
  const create = Session.create.bind(Session);
  const { run, release } = Session.prototype;
  Session.create = (...args) => queue(() => create(...args));
  Session.prototype.run = function (this: unknown, ...args: unknown[]) {
    return queue(() => run.apply(this, args));
  };
  Session.prototype.release = function (this: unknown) {
    return queue(() => release.apply(this));
  };
  Session[PATCHED] = true;
  return true;
}
