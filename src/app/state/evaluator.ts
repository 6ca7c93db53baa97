// The evaluator service's state (wiring/evaluator-service.ts runs the effects): what the status
// panel's evaluator line says, from what the evaluator reports (its start, each model's progress,
// its devices, the embedder's load), changed only by the actions below. The line is one
// selector, `modelLine` (worker-status.ts), the generator's too.
import type { Progress } from './worker-status';

export interface EvaluatorState {
  /** Ready means the embedder runs: documents cannot be embedded or searched by meaning without it. */
  phase: 'idle' | 'loading' | 'ready' | 'error';
  /** What the models run on and why (a model that fails on WebGPU moves to WASM on its own). */
  device?: string;
  reason?: string;
  /** Models loaded so far, by role. */
  models: string[];
  progress?: Progress;
  /** When each role's download started (its bar's clock). */
  startedAt: Record<string, number>;
  error?: string;
  suggestion?: string;
}

export const initialEvaluator: EvaluatorState = { phase: 'idle', models: [], startedAt: {} };

/** The devices line: what the evaluator's models run on, and why. */
export interface Devices {
  device: string;
  reason: string;
}

export type EvaluatorAction =
  | { type: 'starting' }
  | { type: 'startFailed'; error: string; suggestion?: string }
  /** A model's download went on (`progress`), or it is loaded (`name`, as the panel lists it). */
  | { type: 'modelProgressed'; role: string; at: number; loaded?: string; progress?: Omit<Progress, 'startedAt'> }
  | { type: 'devicesChanged'; devices: Devices }
  | { type: 'embedderLoading'; devices: Devices }
  | { type: 'embedderReady'; devices: Devices }
  | { type: 'embedderFailed'; error: string; suggestion: string };

export function evaluatorReducer(s: EvaluatorState, a: EvaluatorAction): EvaluatorState {
  switch (a.type) {
    case 'starting':
      return { ...s, phase: 'loading' };
    case 'startFailed':
      return { ...s, phase: 'error', error: a.error, suggestion: a.suggestion, progress: undefined };
    case 'modelProgressed': {
      const startedAt = a.role in s.startedAt ? s.startedAt : { ...s.startedAt, [a.role]: a.at };
      if (a.loaded) return { ...s, startedAt, progress: undefined, models: [...new Set([...s.models, a.loaded])] };
      return a.progress ? { ...s, startedAt, progress: { ...a.progress, startedAt: startedAt[a.role]! } } : s;
    }
    case 'devicesChanged':
      return { ...s, ...a.devices };
    case 'embedderLoading':
      return { ...s, phase: 'loading', error: undefined, suggestion: undefined, ...a.devices };
    case 'embedderReady':
      return { ...s, phase: 'ready', progress: undefined, ...a.devices };
    case 'embedderFailed':
      return { ...s, phase: 'error', error: a.error, suggestion: a.suggestion, progress: undefined };
  }
}
