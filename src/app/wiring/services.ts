// The app's services, assembled: the evaluator (evaluator-service.ts), the generator
// (generator-service.ts), the library (library-connection.ts) and the corrector built on them.
// Each starts lazily: the first page load pulls only the UI, and each model library loads in its
// own worker after first paint (evaluator, library) or on the first question (generator).
// Settings are the controller's: `follow` hands them over, and the services react to them. The
// page makes one (create-app.ts); the evaluation page uses that same object, through React's context.
import type { Corrector, Critic, Retriever, Writer } from '../../core/ports';
import type { Evaluator } from '../../evaluator/client';
import type { GeneratorHandle } from '../../generator';
import type { AppServices } from './services-contract';
import type { WebGpuCheck } from '../browser/webgpu';
import { connectLibrary, type LibraryConnection } from './library-connection';
import { createStatusStore } from '../state/worker-status';
import type { CragChoice } from '../persist/settings';
import type { AnswerWriter } from '../state/answer';
import type { RetrievalSettings } from '../../core/hybrid';
import { checkWebGpu } from '../browser/webgpu';
import { createStoragePlan, type StoragePlan } from './storage-plan';
import { createEvaluatorService, type EvaluatorStarter } from './evaluator-service';
import { createGeneratorService, type EngineInUse } from './generator-service';
import { lazy } from './lazy';
import { fixedSettings, type SettingsSource } from './settings-source';
import { meaningCoverage } from '../view/meaning-coverage';

export interface Services extends AppServices {
  evaluator(): Promise<Evaluator>;
  generator(): Promise<GeneratorHandle & Writer>;
  retriever(settings?: RetrievalSettings): Promise<Retriever>;
  /** The library facade itself (documents, passages), once open. */
  libraryConnection(): Promise<LibraryConnection>;
}

/** The loaded model and its engine, when `given` is the handle loaded now (the one that will write). */
function writerOf(handle: GeneratorHandle | null, given: unknown): AnswerWriter | null {
  const on = handle === given ? handle?.runsOn() : undefined;
  return handle?.modelId && on ? { model: handle.modelId, engine: on.label } : null;
}

/** The parts made on first use (service-makers.ts). */
const makers = lazy(() => import('./service-makers'));

/** The real evaluator: its worker, configured from the address and the page's storage. */
function evaluatorStarter(search: string, baseURI: string, storage: StoragePlan): EvaluatorStarter {
  let summarise: typeof import('../../evaluator/device-summary').summariseDevices | undefined;
  return {
    async start(report) {
      const started = await (await makers()).startEvaluator(search, baseURI, storage, report);
      summarise = started.summariseDevices;
      return started;
    },
    devices: (ev) => summarise!(ev.device, ev.models()),
  };
}

export function createServices(search: string, baseURI: string, storage: StoragePlan = createStoragePlan()): Services {
  const status = createStatusStore();
  const webgpu = lazy<WebGpuCheck>(() => checkWebGpu());
  let settings: SettingsSource = fixedSettings();

  const evaluators = createEvaluatorService(status, evaluatorStarter(search, baseURI, storage));
  const evaluator = evaluators.evaluator;

  // web-llm cannot load without Cache Storage (every cache backend it has needs storage);
  // llama.cpp can, from a download held in memory, so Auto takes it where the page has no storage.
  // A frame granted Storage Access has the app site's Cache Storage (relayed to the worker).
  const autoEngine = async (): Promise<EngineInUse> => {
    const { probe } = await storage.ready();
    const caches = probe?.caches !== false || (await storage.modelCaches()) !== undefined;
    return (await webgpu()).ok && caches ? 'webllm' : 'wllama';
  };
  const generators = createGeneratorService({
    status,
    webgpu,
    autoEngine,
    createHandle: async (engine, wanted, hooks) =>
      (await makers()).makeGenerator(engine, wanted, hooks, baseURI, storage),
    ggufStorage: async (gguf) => (await makers()).ggufStorage(gguf, baseURI, storage),
  });
  const generator = generators.generator;

  // The library opens with the index the settings name when it opens; a later choice waits for a reload.
  const library = connectLibrary({
    indexKind: () => settings.get().indexKind,
    status,
    baseURI,
    embedder: async () => (await evaluator()).embedder,
    rerank: async (query, texts, signal) => (await evaluator()).relevanceScores(query, texts, signal),
    embedderId: evaluators.embedderId,
    openStore: (name) => storage.openStore(name),
    keepOriginals: () => settings.get().keepOriginals,
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
      interrupt: generators.interrupt,
      writtenBy: (g) => writerOf(generators.current(), g),
      meaningCoverage: () => meaningCoverage(library.view.get().docs),
    },
    follow(source) {
      settings = source;
      generators.follow(source);
    },
    loadGenerator: () => void generator().catch(() => undefined),
    // Once the embedder runs again, the documents kept without vectors meanwhile are embedded.
    retryEvaluator: () =>
      void evaluators.retry().then(async (ok) => {
        if (ok) await library.embedPending().catch(() => undefined);
      }),
    cancelGenerator: generators.cancelLoad,
    engine: generators.engine,
    models: generators.models,
    indexKindInUse: () => library.openedWith() ?? settings.get().indexKind,
    webgpu,
    start() {
      generators.start();
      library.start();
    },
    evaluator,
    generator,
    retriever: library.retriever,
    libraryConnection: library.connection,
    storage,
  };
}
