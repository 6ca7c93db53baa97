// The app's services, created lazily: the first page load pulls only the UI,
// and each model library loads in its own worker after first paint (evaluator,
// library) or on the first question (generator). E's evaluation page uses the
// same object through getServices().
import type { Corrector, Critic, Retriever, Writer } from '../../core/ports';
import type { Evaluator } from '../../evaluator/client';
import type { EvaluatorProgress } from '../../evaluator/config';
import type { GeneratorHandle, LoadProgress } from '../../generator';
import type { AppServices, WebGpuCheck } from './services-contract';
import { connectLibrary, type LibraryConnection } from './library-connection';
import { evaluatorInput } from './evaluator-config';
import { createStatusStore, type Progress } from '../state/worker-status';
import type { IndexChoice } from '../../core/vector-index';
import type { CragChoice } from '../persist/settings';
import type { RetrievalSettings } from '../../core/hybrid';
import { checkWebGpu } from '../browser/webgpu';
import { DEFAULT_MODEL_ID, type ModelChoice } from '../../generator/catalogue';
import { choiceKey } from '../persist/custom-model';
import { createModelCacheStore } from '../state/model-downloads';
import { engineInput, type EngineChoice, type EngineState, type EngineStore } from '../state/engine-choice';
import { createStore } from '../state/store';
import { createStoragePlan, type StoragePlan } from './storage-plan';

export interface Services extends AppServices {
  evaluator(): Promise<Evaluator>;
  generator(): Promise<GeneratorHandle & Writer>;
  retriever(settings?: RetrievalSettings): Promise<Retriever>;
  /** The library facade itself (documents, passages), once open. */
  libraryConnection(): Promise<LibraryConnection>;
}

let singleton: Services | null = null;

export function getServices(): Services {
  singleton ??= createServices(location.search, document.baseURI);
  return singleton;
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => {
    p ??= make();
    return p;
  };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function embedderFailed(model: string, e: unknown): { error: string; suggestion: string } {
  return {
    // The worker's message usually names the model and the reason already ("Could not load the embedding model …").
    error: /^could not load/i.test(message(e)) ? message(e) : `The embedding model ${model} could not load: ${message(e)}`,
    suggestion:
      'It is not fetched again on every call. Documents are still added and found by their words, marked "not embedded yet"; choose Try again once the model can be reached, and they are embedded then.',
  };
}

function errorText(e: unknown): { error: string; suggestion?: string } {
  if (e instanceof Error) return { error: e.message, suggestion: (e as Error & { suggestion?: string }).suggestion };
  return { error: String(e) };
}

export function createServices(search: string, baseURI: string, storage: StoragePlan = createStoragePlan()): Services {
  const status = createStatusStore();
  const webgpu = once<WebGpuCheck>(() => checkWebGpu());
  const evalStarted = new Map<string, number>();
  let embedderId: string | undefined;
  let embedderModel = '';

  // Ready means the embedder can run: documents cannot be embedded or searched by meaning without it.
  const loadEmbedder = async (ev: Evaluator, model: string): Promise<boolean> => {
    const { summariseDevices } = await import('../../evaluator/device-summary');
    status.update('evaluator', { state: 'loading', error: undefined, suggestion: undefined, ...summariseDevices(ev.device, ev.models()) });
    try {
      await ev.preload(['embedder']);
      status.update('evaluator', { state: 'ready', ...summariseDevices(ev.device, ev.models()), progress: undefined });
      return true;
    } catch (e) {
      status.update('evaluator', { state: 'error', ...embedderFailed(model, e), progress: undefined });
      return false;
    }
  };

  let evaluatorStart: Promise<Evaluator> | null = null;
  const evaluator = () => {
    evaluatorStart ??= startEvaluator();
    return evaluatorStart;
  };
  /**
   * Try again after a failure: the evaluator is started again if it did not start, else its
   * failed model loads are forgotten and the embedder loads again; once it does, the documents
   * kept without vectors meanwhile are embedded.
   */
  const retryEvaluator = async () => {
    const ev = await evaluator().catch(() => null);
    if (ev) {
      ev.retry();
      if (!(await loadEmbedder(ev, embedderModel))) return;
    } else {
      evaluatorStart = null;
      // Started again, it loads the embedder itself; embedding below waits for that load.
      if (!(await evaluator().catch(() => null))) return;
    }
    await library.embedPending().catch(() => undefined);
  };

  const startEvaluator = async () => {
    status.update('evaluator', { state: 'loading' });
    try {
      const [{ createEvaluator }, { resolveEvaluatorConfig }, { summariseDevices }] = await Promise.all([
        import('../../evaluator/client'),
        import('../../evaluator/config'),
        import('../../evaluator/device-summary'),
      ]);
      const config = resolveEvaluatorConfig(evaluatorInput(search), baseURI);
      let ev: Evaluator | undefined;
      const onProgress = (p: EvaluatorProgress) => {
        const key = p.role;
        if (!evalStarted.has(key)) evalStarted.set(key, Date.now());
        const progress: Progress = {
          label: `${p.role}: ${p.model}${p.file ? ` (${p.file})` : ''}`,
          loaded: p.loadedBytes,
          total: p.totalBytes > 0 ? p.totalBytes : null,
          startedAt: evalStarted.get(key)!,
        };
        const name = `${p.role}: ${p.model}${ev?.source.source === 'local' ? ' (local pack)' : ''}`;
        const models = p.status === 'ready' ? [...new Set([...status.get().evaluator.models, name])] : status.get().evaluator.models;
        status.update('evaluator', { progress: p.status === 'ready' ? undefined : progress, models });
      };
      // A model that fails on WebGPU moves to WASM on its own; the panel says which and why.
      const onDevice = () => {
        if (ev) status.update('evaluator', summariseDevices(ev.device, ev.models()));
      };
      const savedStorage = await storage.savedStorage();
      ev = await createEvaluator(config, onProgress, onDevice, savedStorage ? { savedStorage } : {});
      // The source found ('auto' resolved), so vectors match a pre-built index made from the hub or a pack.
      embedderId = `${ev.source.source}:${config.embedder.id}`;
      embedderModel = config.embedder.id;
      void loadEmbedder(ev, config.embedder.id);
      return ev;
    } catch (e) {
      status.update('evaluator', { state: 'error', ...errorText(e), progress: undefined });
      throw e;
    }
  };

  let handle: GeneratorHandle | null = null;
  let choice: ModelChoice = { kind: 'catalogue', id: DEFAULT_MODEL_ID };
  let modelId = choiceKey(choice);
  let temperature = 0;
  let handlePromise: Promise<GeneratorHandle> | null = null;
  const generatorHandle = () => {
    handlePromise ??= makeHandle(choice);
    return handlePromise;
  };
  // Which engine writes answers: web-llm on WebGPU, llama.cpp (wllama) on the CPU; 'auto' takes
  // web-llm where WebGPU works and llama.cpp elsewhere, instead of falling to evidence-only.
  let engineChoice: EngineChoice = engineInput(search);
  let engineInUse: 'webllm' | 'wllama' | undefined;
  const engineState = createStore<EngineState>({ choice: engineChoice, ggufCached: null });
  // web-llm cannot load without Cache Storage (every cache backend it has needs storage);
  // llama.cpp can, from a download held in memory, so Auto takes it where the page has no storage.
  // A frame granted Storage Access has the app site's Cache Storage (relayed to the worker).
  const pickEngine = async (): Promise<'webllm' | 'wllama'> => {
    if (engineChoice.engine !== 'auto') return engineChoice.engine;
    const { probe } = await storage.ready();
    const caches = probe?.caches !== false || (await storage.modelCaches()) !== undefined;
    return (await webgpu()).ok && caches ? 'webllm' : 'wllama';
  };
  const makeHandle = async (model: ModelChoice) => {
    let started = Date.now();
    const hooks = {
      onProgress: (p: LoadProgress) => {
        if (p.stage === 'checking') started = Date.now();
        const total = p.loadedBytes && p.fraction > 0 ? p.loadedBytes / p.fraction : null;
        status.update('generator', {
          progress: { label: p.text, loaded: p.loadedBytes ?? 0, total, startedAt: started },
        });
      },
      onState: (s: string, err?: Error) => {
        if (s === 'failed') status.update('generator', { state: 'error', progress: undefined, ...(err ? errorText(err) : {}) });
      },
    };
    engineInUse = await pickEngine();
    engineState.set({ ...engineState.get(), inUse: engineInUse });
    const { createGenerator, createWllamaGenerator } = await import('../../generator');
    const savedStorage = await storage.savedStorage();
    const saved = savedStorage ? { savedStorage } : {};
    if (engineInUse === 'wllama') {
      const { probe } = await storage.ready();
      // Without storage of its own or the app site's (relayed), the GGUF is held in memory for this visit.
      const noCache = probe && !probe.opfs && !savedStorage;
      handle = createWllamaGenerator({ model: engineChoice.gguf, temperature, baseURI, ...saved, ...(noCache ? { noCache: true } : {}) }, hooks);
    } else handle = createGenerator({ model, temperature, ...saved }, hooks);
    return handle;
  };

  /** Lets go of the loaded generator (cancelled, disposed) so the next question loads the current choice. */
  const dropGenerator = () => {
    const old = handlePromise;
    handlePromise = null;
    generatorLoad = null;
    handle = null;
    void old?.then((h) => {
      h.cancelLoad();
      return h.dispose();
    }).catch(() => undefined);
    const s = status.get().generator;
    if (s.state !== 'unavailable') status.update('generator', { state: 'idle', models: [], progress: undefined, error: undefined, suggestion: undefined });
  };

  const selectModel = (next: ModelChoice) => {
    const id = choiceKey(next);
    if (id === modelId) return;
    choice = next;
    modelId = id;
    dropGenerator();
  };

  // A handle for the chosen GGUF model's storage only (marks and delete), without loading it.
  const ggufStorage = async () => {
    const { createWllamaGenerator } = await import('../../generator');
    const savedStorage = await storage.savedStorage();
    return createWllamaGenerator({ model: engineChoice.gguf, baseURI, ...(savedStorage ? { savedStorage } : {}) });
  };
  const engine: EngineStore = {
    get: engineState.get,
    subscribe: engineState.subscribe,
    select(next) {
      if (JSON.stringify(next) === JSON.stringify(engineChoice)) return;
      engineChoice = next;
      engineState.set({ choice: next, ggufCached: null });
      // Same reset as a new model: the next question loads the chosen engine.
      dropGenerator();
      void engine.refresh();
    },
    async refresh() {
      const asked = engineChoice;
      const cached = await (await ggufStorage()).hasModelInCache().catch(() => null);
      if (asked === engineChoice) engineState.set({ ...engineState.get(), ggufCached: cached });
    },
    async remove() {
      if (engineInUse === 'wllama' && handle) {
        await handle.dispose();
        status.update('generator', { state: 'idle', models: [], progress: undefined });
      }
      await (await ggufStorage()).deleteModel();
      await engine.refresh();
    },
  };

  let generatorLoad: Promise<GeneratorHandle> | null = null;
  const generator = async (): Promise<GeneratorHandle & Writer> => {
    const h = await generatorHandle();
    if (h.state === 'ready') return h;
    generatorLoad ??= (async () => {
      const loadingModel = modelId;
      status.update('generator', { state: 'loading', error: undefined, suggestion: undefined });
      try {
        await h.load();
        if (loadingModel !== modelId) throw new Error('Another model was chosen while this one loaded.');
        const gpu = await webgpu();
        const on = h.runsOn();
        status.update('generator', {
          state: 'ready',
          device: on?.device === 'cpu' ? `cpu (${on.label}, ${on.threads} thread${on.threads === 1 ? '' : 's'})` : 'webgpu',
          reason: engineInUse === 'wllama' ? (engineChoice.engine === 'auto' ? `llama.cpp on the CPU: ${gpu.reason}` : 'llama.cpp on the CPU was chosen.') : gpu.reason,
          models: [`${h.modelId ?? 'model'}${h.local ? ' (local pack)' : ''}`],
          progress: undefined,
        });
        void models.refresh();
        if (engineInUse === 'wllama') void engine.refresh();
        return h;
      } catch (e) {
        status.update('generator', { state: 'error', ...errorText(e), progress: undefined });
        throw e;
      } finally {
        generatorLoad = null;
      }
    })();
    return generatorLoad;
  };

  const models = createModelCacheStore({
    // The marks list web-llm's models; the GGUF model's own cache is not one of them.
    has: async (c) => ((await pickEngine()) === 'wllama' ? false : (await generatorHandle()).hasModelInCache(c)),
    remove: async (c) => {
      const h = await generatorHandle();
      const wasLoaded = choiceKey(c) === modelId && h.state === 'ready';
      await h.deleteModel(c);
      if (wasLoaded) status.update('generator', { state: 'idle', models: [], progress: undefined });
    },
    loadingKey: () => (status.get().generator.state === 'loading' ? modelId : null),
  });

  let indexKind: IndexChoice = 'auto';
  let libraryOpening = false;
  let keepOriginals = () => true;
  const library = connectLibrary({
    indexKind: () => {
      libraryOpening = true;
      return indexKind;
    },
    status,
    baseURI,
    embedder: async () => (await evaluator()).embedder,
    rerank: async (query, texts, signal) => (await evaluator()).relevanceScores(query, texts, signal),
    embedderId: async () => {
      await evaluator();
      return embedderId;
    },
    openStore: (name) => storage.openStore(name),
    keepOriginals: () => keepOriginals(),
  });

  const critic = async (): Promise<Critic | undefined> => (await evaluator()).critic;
  const corrector = async (crag: CragChoice): Promise<Corrector> => {
    const [{ buildCorrector }, ev, writer, retriever] = await Promise.all([
      import('./corrector-config'),
      evaluator(),
      generator(),
      library.retriever(),
    ]);
    return buildCorrector(
      {
        score: ev.relevanceScores,
        writer,
        retriever,
        online: () => navigator.onLine,
        external: async () => (await import('../../external/wikipedia')).createWikipediaSearch(),
      },
      crag,
    );
  };

  return {
    status,
    library: library.view,
    ports: {
      generator,
      retriever: library.retriever,
      critic,
      corrector,
      interrupt: () => handle?.interrupt(),
    },
    loadGenerator: () => void generator().catch(() => undefined),
    retryEvaluator: () => void retryEvaluator(),
    cancelGenerator: () => handle?.cancelLoad(),
    selectModel,
    engine,
    setTemperature(t) {
      temperature = t;
      handle?.setTemperature(t);
    },
    models,
    followKeepOriginals(read) {
      keepOriginals = read;
    },
    selectIndexKind(kind) {
      if (!libraryOpening) indexKind = kind;
    },
    indexKindInUse: () => indexKind,
    webgpu,
    start() {
      void webgpu().then((g) => {
        if (!g.ok) status.update('generator', { state: 'unavailable', reason: g.reason });
      });
      library.start();
    },
    evaluator,
    generator,
    retriever: library.retriever,
    libraryConnection: library.connection,
    storage,
  };
}
