// Which engine writes answers, from the page's address: `engine=auto|webllm|wllama`
// and `gguf=<catalogue id or .gguf address>` (`ggufNative=1` for a Self-RAG GGUF).
import { DEFAULT_GGUF_ID, findGguf, type GgufChoice } from '../generator/gguf-catalogue';

export type EngineName = 'auto' | 'webllm' | 'wllama';

export interface EngineChoice {
  engine: EngineName;
  gguf: GgufChoice;
}

export function engineInput(search: string): EngineChoice {
  const p = new URLSearchParams(search);
  const e = p.get('engine');
  const engine: EngineName = e === 'webllm' || e === 'wllama' ? e : 'auto';
  const g = p.get('gguf');
  const gguf: GgufChoice = !g ? { kind: 'gguf', id: DEFAULT_GGUF_ID } : findGguf(g) ? { kind: 'gguf', id: g } : { kind: 'gguf-url', url: g, native: p.get('ggufNative') === '1' };
  return { engine, gguf };
}
