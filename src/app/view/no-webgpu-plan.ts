// What the no-WebGPU notice says, decided from the engine the user chose: whether answers still
// come on the CPU, and whether to offer the switch to llama.cpp.
import type { EngineName } from '../persist/engine-choice';

/** What the no-WebGPU notice tells the user, decided from the engine they chose. */
export interface NoWebGpuPlan {
  /** Whether written answers still come (on the CPU with llama.cpp). */
  answersOnCpu: boolean;
  message: string;
  /** Offer the switch to llama.cpp (only when the chosen engine cannot run here). */
  offerLlama: boolean;
}

export function noWebGpuPlan(engine: EngineName): NoWebGpuPlan {
  if (engine === 'webllm') {
    return {
      answersOnCpu: false,
      message:
        'WebLLM was chosen as the engine, and it cannot run without WebGPU, so no answer can be written. Switch to llama.cpp on the CPU (slower, the model is downloaded once), or search your documents and rank them by relevance without a language model.',
      offerLlama: true,
    };
  }
  return {
    answersOnCpu: true,
    message:
      'Answers are written on the CPU with llama.cpp instead (slower, and the model is downloaded once); or search your documents and rank them by relevance without a language model.',
    offerLlama: false,
  };
}
