// How services.ts makes the real services' parts, loaded on first use (the evaluator after the
// first paint, the generator with the first question or load): the evaluator in its worker,
// configured from the address and the page's storage; a generator handle for the engine chosen.
import type { GeneratorHooks } from '../../generator';
import type { GgufChoice } from '../../generator/gguf-catalogue';
import type { EngineInUse, GeneratorWanted } from '../state/generator';
import { evaluatorInput } from './evaluator-config';
import type { EvaluatorStarter } from './evaluator-service';
import type { StoragePlan } from './storage-plan';

/** The real evaluator: its worker, configured from the address and the page's storage. */
export async function startEvaluator(
  search: string,
  baseURI: string,
  storage: StoragePlan,
  report: Parameters<EvaluatorStarter['start']>[0],
) {
  const [{ createEvaluator }, { resolveEvaluatorConfig }, { summariseDevices }] = await Promise.all([
    import('../../evaluator/client'),
    import('../../evaluator/config'),
    import('../../evaluator/device-summary'),
  ]);
  const config = resolveEvaluatorConfig(evaluatorInput(search), baseURI);
  const savedStorage = await storage.savedStorage();
  const evaluator = await createEvaluator(
    config,
    report.onProgress,
    report.onDevice,
    savedStorage ? { savedStorage } : {},
  );
  return { evaluator, embedderModel: config.embedder.id, summariseDevices };
}

/** A generator handle for `engine`, not loaded yet. */
export async function makeGenerator(
  engine: EngineInUse,
  wanted: GeneratorWanted,
  hooks: GeneratorHooks,
  baseURI: string,
  storage: StoragePlan,
) {
  const { createGenerator, createWllamaGenerator } = await import('../../generator');
  const savedStorage = await storage.savedStorage();
  const saved = savedStorage ? { savedStorage } : {};
  if (engine === 'webllm')
    return createGenerator({ model: wanted.model, temperature: wanted.temperature, ...saved }, hooks);
  const { probe } = await storage.ready();
  // Without storage of its own or the app site's (relayed), the GGUF is held in memory for this visit.
  const noCache = probe && !probe.opfs && !savedStorage;
  return createWllamaGenerator(
    {
      model: wanted.engine.gguf,
      temperature: wanted.temperature,
      baseURI,
      ...saved,
      ...(noCache ? { noCache: true } : {}),
    },
    hooks,
  );
}

/** A handle for a GGUF model's storage only (its download mark and delete), never loaded. */
export async function ggufStorage(gguf: GgufChoice, baseURI: string, storage: StoragePlan) {
  const { createWllamaGenerator } = await import('../../generator');
  const savedStorage = await storage.savedStorage();
  return createWllamaGenerator({ model: gguf, baseURI, ...(savedStorage ? { savedStorage } : {}) });
}
