// The generator as a service: which engine and model answer (followed from the settings, never
// kept apart from them), the handle that loads it, and the generator's line in the status panel.
// That line is derived in one place (`statusOf`) from the handle's own lifecycle
// (generator/shared/lifecycle.ts: idle → loading → ready | failed), reported through its hooks.
import type { Writer } from '../../core/ports';
import type { GeneratorHandle, GeneratorHooks, GeneratorState, LoadProgress } from '../../generator';
import { DEFAULT_MODEL_ID, type ModelChoice } from '../../generator/catalogue';
import type { GeneratorError } from '../../generator/errors';
import type { GgufChoice } from '../../generator/gguf-catalogue';
import { choiceKey, modelChoice } from '../persist/custom-model';
import type { AppSettings } from '../persist/settings';
import { engineInput, type EngineChoice, type EngineState, type EngineStore } from '../state/engine-choice';
import { createModelCacheStore, type ModelCacheStore } from '../state/model-downloads';
import { createStore } from '../state/store';
import type { StatusStore, WorkerStatus } from '../state/worker-status';
import { lazy } from './lazy';
import type { WebGpuCheck } from './services-contract';
import { fixedSettings, type SettingsSource } from './settings-source';

export type EngineInUse = 'webllm' | 'wllama';

/** What the settings ask of the generator. */
export interface GeneratorWanted {
  model: ModelChoice;
  engine: EngineChoice;
  temperature: number;
}

export interface GeneratorServiceDeps {
  status: StatusStore;
  /** The page's address: it may name an engine for this visit over the stored one (engineInput). */
  search: string;
  webgpu(): Promise<WebGpuCheck>;
  /** The engine 'auto' takes on this page. */
  autoEngine(): Promise<EngineInUse>;
  /** A handle for `engine`, not loaded yet, reporting through `hooks`. */
  createHandle(engine: EngineInUse, wanted: GeneratorWanted, hooks: GeneratorHooks): Promise<GeneratorHandle>;
  /** A handle for the chosen GGUF model's storage only (marks and delete), never loaded. */
  ggufStorage(gguf: GgufChoice): Promise<Pick<GeneratorHandle, 'hasModelInCache' | 'deleteModel'>>;
}

export interface GeneratorService {
  /** The loaded generator, loading it first (once, however many ask). */
  generator(): Promise<GeneratorHandle & Writer>;
  /** The handle made for the current choice, loaded or not. */
  current(): GeneratorHandle | null;
  cancelLoad(): void;
  interrupt(): void;
  engine: EngineStore;
  models: ModelCacheStore;
  /** Follows these settings from now on (model, engine, temperature). */
  follow(settings: SettingsSource): void;
  /** Says at start when this browser has no WebGPU. */
  start(): void;
}

const errorPatch = (e: unknown): Partial<WorkerStatus> =>
  e instanceof Error
    ? { error: e.message, suggestion: (e as Error & { suggestion?: string }).suggestion }
    : { error: String(e) };

/**
 * The status line for a lifecycle state. The panel names a failed load 'error'; a cancelled load
 * (the lifecycle goes back to idle with the reason) is shown like one, so it offers to try again.
 */
function statusOf(
  state: GeneratorState,
  error: GeneratorError | undefined,
  ready: () => Partial<WorkerStatus>,
  unavailable: boolean,
): Partial<WorkerStatus> {
  if (state === 'loading') return { state: 'loading', error: undefined, suggestion: undefined };
  if (state === 'ready')
    return { state: 'ready', progress: undefined, error: undefined, suggestion: undefined, ...ready() };
  if (state === 'failed' || error) return { state: 'error', progress: undefined, ...(error ? errorPatch(error) : {}) };
  // Unloaded: the next question loads the current choice. No WebGPU stays said.
  return unavailable
    ? { models: [], progress: undefined }
    : { state: 'idle', models: [], progress: undefined, error: undefined, suggestion: undefined };
}

export function createGeneratorService(
  deps: GeneratorServiceDeps,
  initial: SettingsSource = fixedSettings(),
): GeneratorService {
  const { status } = deps;
  let source = initial;
  let unfollow = () => {};
  // The address's engine applies to the stored choice the page opened with, until the user picks one.
  let openedEngine = JSON.stringify(initial.get().engine);
  let picked = false;
  const wantedFrom = (s: AppSettings): GeneratorWanted => {
    picked ||= JSON.stringify(s.engine) !== openedEngine;
    return {
      model: modelChoice(s.model, s.customModel) ?? { kind: 'catalogue', id: DEFAULT_MODEL_ID },
      engine: picked ? s.engine : engineInput(deps.search, s.engine),
      temperature: s.temperature,
    };
  };
  let wanted = wantedFrom(initial.get());
  /** The engine that would write for `w`: Auto resolved to what this browser can run. */
  const engineFor = async (w: GeneratorWanted): Promise<EngineInUse> =>
    w.engine.engine === 'auto' ? deps.autoEngine() : w.engine.engine;

  let handle: GeneratorHandle | null = null;
  let inUse: EngineInUse | undefined;
  let gpu: WebGpuCheck = { ok: false, reason: '' };
  const engineState = createStore<EngineState>({ choice: wanted.engine, ggufCached: null });

  const setStatus = (state: GeneratorState, error?: GeneratorError) => {
    const h = handle;
    const ready = () => {
      const on = h?.runsOn();
      return {
        device:
          on?.device === 'cpu' ? `cpu (${on.label}, ${on.threads} thread${on.threads === 1 ? '' : 's'})` : 'webgpu',
        reason:
          inUse === 'wllama'
            ? wanted.engine.engine === 'auto'
              ? `llama.cpp on the CPU: ${gpu.reason}`
              : 'llama.cpp on the CPU was chosen.'
            : gpu.reason,
        models: [`${h?.modelId ?? 'model'}${h?.local ? ' (local pack)' : ''}`],
      };
    };
    status.update('generator', statusOf(state, error, ready, status.get().generator.state === 'unavailable'));
  };

  const makeHandle = lazy(async () => {
    gpu = await deps.webgpu();
    inUse = await engineFor(wanted);
    engineState.set({ ...engineState.get(), inUse });
    let started = Date.now();
    let made: GeneratorHandle | null = null;
    // Only the current handle speaks for the generator: one being dropped still reports its unloading.
    const hooks: GeneratorHooks = {
      onProgress: (p: LoadProgress) => {
        if (made !== handle) return;
        if (p.stage === 'checking') started = Date.now();
        const total = p.loadedBytes && p.fraction > 0 ? p.loadedBytes / p.fraction : null;
        status.update('generator', {
          progress: { label: p.text, loaded: p.loadedBytes ?? 0, total, startedAt: started },
        });
      },
      onState: (s, err) => {
        if (made === handle) setStatus(s, err);
      },
    };
    made = handle = await deps.createHandle(inUse, wanted, hooks);
    return made;
  });

  /** Lets go of the handle (cancelled, disposed), so the next question loads the current choice. */
  const drop = () => {
    const old = makeHandle.started() ? makeHandle() : null;
    makeHandle.reset();
    handle = null;
    void old
      ?.then((h) => {
        h.cancelLoad();
        return h.dispose();
      })
      .catch(() => undefined);
    setStatus('idle');
  };

  const loading = lazy(
    async () => {
      const h = await makeHandle();
      await h.load();
      if (h !== handle) throw new Error('Another model was chosen while this one loaded.');
      void models.refresh();
      if (inUse === 'wllama') void engine.refresh();
      return h;
    },
    { inFlight: true },
  );

  const generator = async (): Promise<GeneratorHandle & Writer> => {
    const h = await makeHandle();
    return h.state === 'ready' ? h : loading();
  };

  const ggufStorage = () => deps.ggufStorage(wanted.engine.gguf);
  const engine: EngineStore = {
    get: engineState.get,
    subscribe: engineState.subscribe,
    async refresh() {
      const asked = wanted.engine;
      const cached = await (await ggufStorage()).hasModelInCache().catch(() => null);
      if (asked === wanted.engine) engineState.set({ ...engineState.get(), ggufCached: cached });
    },
    async remove() {
      // Disposing the loaded GGUF model reports its unloading through its lifecycle.
      if (inUse === 'wllama' && handle) await handle.dispose();
      await (await ggufStorage()).deleteModel();
      await engine.refresh();
    },
  };

  const models = createModelCacheStore({
    // The marks list web-llm's models; the GGUF model's own cache is not one of them.
    has: async (c) => ((await engineFor(wanted)) === 'wllama' ? false : (await makeHandle()).hasModelInCache(c)),
    // Deleting the loaded model unloads it first (the lifecycle reports it).
    remove: async (c) => (await makeHandle()).deleteModel(c),
    loadingKey: () => (status.get().generator.state === 'loading' ? choiceKey(wanted.model) : null),
  });

  let seen: AppSettings | null = null;
  const apply = () => {
    // The controller tells of every change (an answer streaming too); only new settings matter here.
    if (source.get() === seen) return;
    seen = source.get();
    const next = wantedFrom(seen);
    const before = wanted;
    wanted = next;
    const engineChanged = JSON.stringify(next.engine) !== JSON.stringify(before.engine);
    if (engineChanged) engineState.set({ choice: next.engine, ggufCached: null });
    if (engineChanged || choiceKey(next.model) !== choiceKey(before.model)) drop();
    else if (next.temperature !== before.temperature) handle?.setTemperature(next.temperature);
    if (engineChanged) {
      void engine.refresh();
      void announce();
    }
  };

  /**
   * Before a model loads: whether the chosen engine can answer here. Without WebGPU only web-llm
   * cannot; Auto and llama.cpp still answer on the CPU, so the panel says that and offers to load.
   */
  const announce = async () => {
    const g = await deps.webgpu();
    if (g.ok || handle) return;
    const engineHere = await engineFor(wanted);
    if (handle) return;
    status.update(
      'generator',
      engineHere === 'webllm'
        ? { state: 'unavailable', reason: `${g.reason} web-llm needs WebGPU: choose Auto or llama.cpp.` }
        : { state: 'idle', reason: `${g.reason} Answers are written by llama.cpp on the CPU, more slowly.` },
    );
  };

  return {
    generator,
    current: () => handle,
    cancelLoad: () => handle?.cancelLoad(),
    interrupt: () => handle?.interrupt(),
    engine,
    models,
    follow(settings) {
      unfollow();
      source = settings;
      openedEngine = JSON.stringify(settings.get().engine);
      picked = false;
      unfollow = settings.subscribe(apply);
      apply();
    },
    start() {
      void announce();
    },
  };
}
