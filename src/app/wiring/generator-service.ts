// The generator as a service: the effects around state/generator.ts. It follows the settings (model,
// engine, temperature: never kept apart from them; the engine a page's address names is already in
// them, resolved once at load), makes and loads one handle, lets it go when the choice changes, and
// publishes the status panel's generator line (`modelLine`) whenever it changes.
import type { Writer } from '../../core/ports';
import type { GeneratorHandle, GeneratorHooks, LoadProgress } from '../../generator';
import { DEFAULT_MODEL_ID } from '../../generator/catalogue';
import type { GgufChoice } from '../../generator/gguf-catalogue';
import { choiceKey, modelChoice } from '../persist/custom-model';
import type { AppSettings } from '../persist/settings';
import { createActionStore, type ActionStore } from '../state/action-store';
import type { EngineStore } from '../state/engine-state';
import {
  generatorReducer,
  initialGenerator,
  type EngineInUse,
  type GeneratorAction,
  type GeneratorServiceState,
  type GeneratorWanted,
} from '../state/generator';
import type { ModelCacheStore } from '../state/model-downloads';
import { createModelCacheStore } from './model-downloads';
import { followStatus, modelLine, type StatusStore } from '../state/worker-status';
import { lazy, type Lazy } from './lazy';
import type { WebGpuCheck } from '../browser/webgpu';
import { fixedSettings, type SettingsSource } from './settings-source';

export type { EngineInUse, GeneratorWanted } from '../state/generator';

export interface GeneratorServiceDeps {
  status: StatusStore;
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

const wantedFrom = (s: AppSettings): GeneratorWanted => ({
  model: modelChoice(s.model, s.customModel) ?? { kind: 'catalogue', id: DEFAULT_MODEL_ID },
  engine: s.engine,
  temperature: s.temperature,
});

const failure = (e: unknown) =>
  e instanceof Error
    ? { message: e.message, suggestion: (e as Error & { suggestion?: string }).suggestion }
    : { message: String(e) };

/** What the service's effects share. */
interface Runner {
  deps: GeneratorServiceDeps;
  state: ActionStore<GeneratorServiceState, GeneratorAction>;
  /** The handle for the current choice; only it speaks for the generator. */
  handle: GeneratorHandle | null;
  makeHandle: Lazy<GeneratorHandle>;
}

/** The engine that would write for the current choice: Auto resolved to what this browser can run. */
function engineHere(r: Runner): Promise<EngineInUse> {
  const { engine } = r.state.get().wanted.engine;
  return engine === 'auto' ? r.deps.autoEngine() : Promise.resolve(engine);
}

/** Makes the handle for the current choice, its hooks reporting into the state while it is the current one. */
async function makeHandle(r: Runner): Promise<GeneratorHandle> {
  r.state.dispatch({ type: 'gpuChecked', gpu: await r.deps.webgpu() });
  const inUse = await engineHere(r);
  r.state.dispatch({ type: 'engineResolved', inUse });
  let started = Date.now();
  let made: GeneratorHandle | null = null;
  // A handle being dropped still reports its unloading: only the current one is heard.
  const hooks: GeneratorHooks = {
    onProgress: (p: LoadProgress) => {
      if (made !== r.handle) return;
      if (p.stage === 'checking') started = Date.now();
      const total = p.loadedBytes && p.fraction > 0 ? p.loadedBytes / p.fraction : null;
      r.state.dispatch({
        type: 'progressed',
        progress: { label: p.text, loaded: p.loadedBytes ?? 0, total, startedAt: started },
      });
    },
    onState: (state, err) => {
      if (made !== r.handle) return;
      const h = made;
      r.state.dispatch({
        type: 'lifecycle',
        state,
        ...(err ? { error: failure(err) } : {}),
        ...(state === 'ready' && h ? { loaded: { runsOn: h.runsOn(), modelId: h.modelId, local: h.local } } : {}),
      });
    },
  };
  made = r.handle = await r.deps.createHandle(inUse, r.state.get().wanted, hooks);
  return made;
}

/** Lets go of the handle (cancelled, disposed), so the next question loads the current choice. */
function drop(r: Runner): void {
  const old = r.makeHandle.started() ? r.makeHandle() : null;
  r.makeHandle.reset();
  r.handle = null;
  void old
    ?.then((h) => {
      h.cancelLoad();
      return h.dispose();
    })
    .catch(() => undefined);
  r.state.dispatch({ type: 'lifecycle', state: 'idle' });
}

/**
 * Before a model loads: whether the chosen engine can answer here. Without WebGPU only web-llm
 * cannot; Auto and llama.cpp still answer on the CPU, so the panel says that and offers to load.
 */
async function announce(r: Runner): Promise<void> {
  const g = await r.deps.webgpu();
  if (g.ok || r.handle) return;
  const engine = await engineHere(r);
  if (r.handle) return;
  r.state.dispatch(
    engine === 'webllm'
      ? {
          type: 'announced',
          phase: 'unavailable',
          reason: `${g.reason} web-llm needs WebGPU: choose Auto or llama.cpp.`,
        }
      : {
          type: 'announced',
          phase: 'idle',
          reason: `${g.reason} Answers are written by llama.cpp on the CPU, more slowly.`,
        },
  );
}

/** The engine picker's store: its view of the state, and the GGUF model's download mark and delete. */
function engineStore(r: Runner): EngineStore {
  const storage = () => r.deps.ggufStorage(r.state.get().wanted.engine.gguf);
  const engine: EngineStore = {
    get: () => r.state.get().engine,
    subscribe: r.state.subscribe,
    async refresh() {
      const asked = r.state.get().wanted.engine;
      const cached = await (await storage()).hasModelInCache().catch(() => null);
      r.state.dispatch({ type: 'ggufChecked', asked, cached });
    },
    async remove() {
      // Disposing the loaded GGUF model reports its unloading through its lifecycle.
      if (r.state.get().engine.inUse === 'wllama' && r.handle) await r.handle.dispose();
      await (await storage()).deleteModel();
      await engine.refresh();
    },
  };
  return engine;
}

/** A new choice from the settings: a new model or engine lets the loaded one go; a new temperature goes to it. */
function follow(r: Runner, next: GeneratorWanted, engine: EngineStore): void {
  const before = r.state.get().wanted;
  r.state.dispatch({ type: 'wantedChanged', wanted: next });
  const engineChanged = JSON.stringify(next.engine) !== JSON.stringify(before.engine);
  if (engineChanged || choiceKey(next.model) !== choiceKey(before.model)) drop(r);
  else if (next.temperature !== before.temperature) r.handle?.setTemperature(next.temperature);
  if (engineChanged) {
    void engine.refresh();
    void announce(r);
  }
}

export function createGeneratorService(
  deps: GeneratorServiceDeps,
  initial: SettingsSource = fixedSettings(),
): GeneratorService {
  const state = createActionStore(generatorReducer, initialGenerator(wantedFrom(initial.get())));
  const r: Runner = { deps, state, handle: null, makeHandle: lazy(() => makeHandle(r)) };
  followStatus(deps.status, 'generator', state, modelLine);
  const loading = lazy(
    async () => {
      const h = await r.makeHandle();
      await h.load();
      if (h !== r.handle) throw new Error('Another model was chosen while this one loaded.');
      void models.refresh();
      if (state.get().engine.inUse === 'wllama') void engine.refresh();
      return h;
    },
    { inFlight: true },
  );
  const engine = engineStore(r);
  const models = createModelCacheStore({
    // The marks list web-llm's models; the GGUF model's own cache is not one of them.
    has: async (c) => ((await engineHere(r)) === 'wllama' ? false : (await r.makeHandle()).hasModelInCache(c)),
    // Deleting the loaded model unloads it first (the lifecycle reports it).
    remove: async (c) => (await r.makeHandle()).deleteModel(c),
    loadingKey: () => (state.get().phase === 'loading' ? choiceKey(state.get().wanted.model) : null),
  });
  let unfollow = () => {};
  let seen: AppSettings | null = null;

  return {
    async generator() {
      const h = await r.makeHandle();
      return h.state === 'ready' ? (h as GeneratorHandle & Writer) : loading();
    },
    current: () => r.handle,
    cancelLoad: () => r.handle?.cancelLoad(),
    interrupt: () => r.handle?.interrupt(),
    engine,
    models,
    follow(settings) {
      unfollow();
      const apply = () => {
        // The controller tells of every change (an answer streaming too); only new settings matter here.
        if (settings.get() === seen) return;
        seen = settings.get();
        follow(r, wantedFrom(seen), engine);
      };
      unfollow = settings.subscribe(apply);
      apply();
    },
    start() {
      void announce(r);
    },
  };
}
