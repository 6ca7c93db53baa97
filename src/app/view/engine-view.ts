// What the engine picker shows: whether the CPU model (GGUF) matters, and its size in words.
import type { EngineName } from '../persist/engine-choice';

/** The CPU model matters only where llama.cpp writes: chosen by hand, or what Auto picked (or will pick without WebGPU). */
export function writesOnCpu(engine: EngineName, inUse: 'webllm' | 'wllama' | undefined, noWebGpu: boolean): boolean {
  if (engine !== 'auto') return engine === 'wllama';
  return inUse ? inUse === 'wllama' : noWebGpu;
}

const ENGINE_NAMES = { wllama: 'llama.cpp on the CPU', webllm: 'WebLLM on WebGPU' } as const;

/**
 * Who writes the answers, as the engine picker says it. In evidence-only mode no model writes
 * them, whichever engine would: the picker once said "Answers are written by llama.cpp" beside the
 * mode's notice saying they are not.
 */
export function whoWrites(inUse: 'webllm' | 'wllama' | undefined, evidenceOnly: boolean): string | null {
  if (!evidenceOnly) return inUse ? `Answers are written by ${ENGINE_NAMES[inUse]}.` : null;
  const after = inUse ? ` ${ENGINE_NAMES[inUse]} writes them once you leave it.` : '';
  return `In evidence-only mode no model writes answers: questions return passages.${after}`;
}

/** "about 1.2 GB", for a download of `mb` megabytes. */
export const aboutGb = (mb: number) => `about ${Math.round(mb / 100) / 10} GB`;
