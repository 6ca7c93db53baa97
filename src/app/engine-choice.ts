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

export interface EngineState {
  choice: EngineChoice;
  /** The engine answering (after 'auto' was resolved), once known. */
  inUse?: 'webllm' | 'wllama';
  /** Whether the chosen GGUF model is in this browser's storage (null: not checked or unknown). */
  ggufCached: boolean | null;
}

/** The engine picker's state, for the UI (a tiny observable store). */
export interface EngineStore {
  get(): EngineState;
  subscribe(fn: () => void): () => void;
  /** Switches engine or GGUF model; it loads on the next question. */
  select(choice: EngineChoice): void;
  /** Checks whether the chosen GGUF model is downloaded. */
  refresh(): Promise<void>;
  /** Deletes the chosen GGUF model from this browser's storage (unloading it first). */
  remove(): Promise<void>;
}

export function createStore<T>(initial: T): { get(): T; set(next: T): void; subscribe(fn: () => void): () => void } {
  let value = initial;
  const subs = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = next;
      subs.forEach((fn) => fn());
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
}
