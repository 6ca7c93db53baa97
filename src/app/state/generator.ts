// The generator service's state (wiring/generator-service.ts runs the effects): what the settings
// ask for, the engine picker's view, and what the status panel's generator line says, changed only
// by the actions below. The line itself is one selector, `modelLine` (worker-status.ts). It follows
// the handle's own lifecycle (generator/shared/lifecycle.ts: idle → loading → ready | failed),
// reported through its hooks, and what the page found out before any model loads (no WebGPU:
// `announced`).
import type { GeneratorState, RunsOn } from '../../generator';
import type { ModelChoice } from '../../generator/catalogue';
import type { EngineChoice } from '../persist/engine-choice';
import type { EngineState } from './engine-state';
import type { Progress, WorkerStatus } from './worker-status';

export type EngineInUse = 'webllm' | 'wllama';

/** What the settings ask of the generator. */
export interface GeneratorWanted {
  model: ModelChoice;
  engine: EngineChoice;
  temperature: number;
}

/** The handle's facts when it reports ready. */
export interface LoadedModel {
  runsOn: RunsOn | undefined;
  modelId: string | undefined;
  local: boolean;
}

export interface GeneratorServiceState {
  wanted: GeneratorWanted;
  /** The engine picker's view: the choice, the engine Auto resolved to, whether the GGUF model is downloaded. */
  engine: EngineState;
  /** Whether this browser has WebGPU, and why not; null until checked. */
  gpu: { ok: boolean; reason: string } | null;
  /** The status line's state: the handle's lifecycle, or what the page said before any load. */
  phase: WorkerStatus['state'];
  /** Where the model runs and why: the last said, kept while nothing newer is known. */
  device?: string;
  reason?: string;
  /** The loaded model, by name; none after it is let go. */
  models: string[];
  progress?: Progress;
  /** The last failure, until a load starts or succeeds. */
  error?: string;
  suggestion?: string;
}

export type GeneratorAction =
  | { type: 'wantedChanged'; wanted: GeneratorWanted }
  | { type: 'gpuChecked'; gpu: { ok: boolean; reason: string } }
  | { type: 'engineResolved'; inUse: EngineInUse }
  | { type: 'ggufChecked'; asked: EngineChoice; cached: boolean | null }
  | { type: 'progressed'; progress: Progress }
  | { type: 'lifecycle'; state: GeneratorState; error?: { message: string; suggestion?: string }; loaded?: LoadedModel }
  | { type: 'announced'; phase: 'idle' | 'unavailable'; reason: string };

export function initialGenerator(wanted: GeneratorWanted): GeneratorServiceState {
  return { wanted, engine: { choice: wanted.engine, ggufCached: null }, gpu: null, phase: 'idle', models: [] };
}

const sameEngine = (a: EngineChoice, b: EngineChoice) => JSON.stringify(a) === JSON.stringify(b);

/** Where a loaded model runs, and why there. */
function placeOf(s: GeneratorServiceState, loaded: LoadedModel): Pick<GeneratorServiceState, 'device' | 'reason'> {
  const on = loaded.runsOn;
  const gpuReason = s.gpu?.reason ?? '';
  return {
    device: on?.device === 'cpu' ? `cpu (${on.label}, ${on.threads} thread${on.threads === 1 ? '' : 's'})` : 'webgpu',
    reason:
      s.engine.inUse === 'wllama'
        ? s.wanted.engine.engine === 'auto'
          ? `llama.cpp on the CPU: ${gpuReason}`
          : 'llama.cpp on the CPU was chosen.'
        : gpuReason,
  };
}

/**
 * A lifecycle step on the line. The panel names a failed load 'error'; a cancelled load (the
 * lifecycle goes back to idle with the reason) is shown like one, so it offers to try again.
 */
function onLifecycle(s: GeneratorServiceState, a: Extract<GeneratorAction, { type: 'lifecycle' }>) {
  const cleared = { error: undefined, suggestion: undefined };
  if (a.state === 'loading') return { ...s, phase: 'loading' as const, ...cleared };
  if (a.state === 'ready') {
    const loaded = a.loaded ?? { runsOn: undefined, modelId: undefined, local: false };
    const models = [`${loaded.modelId ?? 'model'}${loaded.local ? ' (local pack)' : ''}`];
    return { ...s, phase: 'ready' as const, progress: undefined, ...cleared, ...placeOf(s, loaded), models };
  }
  if (a.state === 'failed' || a.error)
    return {
      ...s,
      phase: 'error' as const,
      progress: undefined,
      ...(a.error ? { ...cleared, error: a.error.message, suggestion: a.error.suggestion } : {}),
    };
  // Unloaded: the next question loads the current choice. No WebGPU stays said.
  if (s.phase === 'unavailable') return { ...s, models: [], progress: undefined };
  return { ...s, phase: 'idle' as const, models: [], progress: undefined, ...cleared };
}

export function generatorReducer(s: GeneratorServiceState, a: GeneratorAction): GeneratorServiceState {
  switch (a.type) {
    case 'wantedChanged': {
      // A new engine choice is resolved anew when its model loads; whether its GGUF is downloaded is checked anew.
      const engine = sameEngine(a.wanted.engine, s.wanted.engine)
        ? s.engine
        : { choice: a.wanted.engine, ggufCached: null };
      return { ...s, wanted: a.wanted, engine };
    }
    case 'gpuChecked':
      return { ...s, gpu: a.gpu };
    case 'engineResolved':
      return { ...s, engine: { ...s.engine, inUse: a.inUse } };
    case 'ggufChecked':
      // An answer for a choice since replaced says nothing about the current one.
      return a.asked === s.wanted.engine ? { ...s, engine: { ...s.engine, ggufCached: a.cached } } : s;
    case 'progressed':
      return { ...s, progress: a.progress };
    case 'lifecycle':
      return onLifecycle(s, a);
    case 'announced':
      return { ...s, phase: a.phase, reason: a.reason };
  }
}
