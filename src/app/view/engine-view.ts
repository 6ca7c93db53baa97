// What the engine picker shows: whether the CPU model (GGUF) matters, and its size in words.
import type { EngineName } from '../state/engine-choice';

/** The CPU model matters only where llama.cpp writes: chosen by hand, or what Auto picked (or will pick without WebGPU). */
export function writesOnCpu(engine: EngineName, inUse: 'webllm' | 'wllama' | undefined, noWebGpu: boolean): boolean {
  if (engine !== 'auto') return engine === 'wllama';
  return inUse ? inUse === 'wllama' : noWebGpu;
}

/** "about 1.2 GB", for a download of `mb` megabytes. */
export const aboutGb = (mb: number) => `about ${Math.round(mb / 100) / 10} GB`;
