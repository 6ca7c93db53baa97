// The generator as src/app sees it, whichever engine answers: load with progress and
// cancel, the core's Generator and Writer ports, one short constrained completion,
// cost, and what it runs on. Each engine (./webllm, ./wllama) supplies a driver to
// ./shared/lifecycle.ts; nothing here names an engine.
import type {
  GeneratedSegment,
  GeneratorCost,
  Passage,
  RetrievalDecisionRequest,
  RetrieveProbs,
  SegmentRequest,
} from '../core/ports';
import type { ModelChoice } from './catalogue';
import type { GeneratorError } from './errors';
import type { LoadProgress } from './progress';

export type { LoadProgress, LoadStage } from './progress';

export type GeneratorState = 'idle' | 'loading' | 'ready' | 'failed';

export interface GeneratorHooks {
  onProgress?: (p: LoadProgress) => void;
  /** Called whenever `state` changes (e.g. to 'failed' after a lost GPU device or a crashed worker). */
  onState?: (state: GeneratorState, error?: GeneratorError) => void;
}

/** Where the loaded model runs, for the status panel. */
export interface RunsOn {
  engine: 'webllm' | 'wllama';
  /** The engine's name for people, e.g. 'llama.cpp'. */
  label: string;
  device: 'webgpu' | 'cpu';
  /** CPU threads in use (1 for WebGPU). */
  threads: number;
}

/** One short decode constrained by a grammar: e.g. a follow-up rewritten into a standalone search query. */
export interface CompleteRequest {
  system?: string;
  prompt: string;
  maxTokens: number;
  /** Constrain the reply to a single line of text (a grammar, on every engine). */
  oneLine?: boolean;
  signal?: AbortSignal;
}

export interface CompleteResult {
  text: string;
  promptTokens: number;
  completionTokens: number;
}

export interface GeneratorHandle {
  readonly state: GeneratorState;
  /** The engine's model id once resolved (e.g. 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC'). */
  readonly modelId: string | undefined;
  readonly native: boolean;
  /** Set when the model is served by the site itself. */
  readonly local: boolean;
  load(): Promise<void>;
  cancelLoad(): void;
  hasModelInCache(choice?: ModelChoice): Promise<boolean>;
  deleteModel(choice?: ModelChoice): Promise<void>;
  /** Changes sampling for the next calls without reloading the model (0 = greedy with the fixed seed). */
  setTemperature(temperature: number): void;
  /** Stops the current decode; the model stays loaded and ready for the next question. */
  interrupt(): void;
  /** Unloads the model; every call in flight rejects with a 'cancelled' GeneratorError. */
  dispose(): Promise<void>;
  /** Where the loaded model runs; undefined until loaded. */
  runsOn(): RunsOn | undefined;
  // Generator and Writer ports
  decideRetrieval(req: RetrievalDecisionRequest): Promise<RetrieveProbs>;
  generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]>;
  judgePassages(question: string, passages: Passage[], signal?: AbortSignal): Promise<number[]>;
  write(instruction: string, opts?: { maxTokens?: number; signal?: AbortSignal }): Promise<string>;
  complete(req: CompleteRequest): Promise<CompleteResult>;
  cost(): GeneratorCost;
  resetCost(): void;
}
