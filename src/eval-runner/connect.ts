import { evaluatorModelIds } from '../app/wiring/evaluator-model-ids';
import type { Services } from '../app/wiring/services';
import { loadSettings } from '../app/persist/settings';
import type { ExternalSearch } from '../core/ports';
import type { RagasPorts } from '../core/ragas/evaluate';
import type { EvalPorts } from './run';

/**
 * The evaluation page uses the same services as the answer page, so it measures exactly
 * the models and library the user has loaded.
 */
export async function evalPorts(services: Services, opts: { external?: ExternalSearch } = {}): Promise<EvalPorts> {
  // The user's retrieval setting (words / meaning / both, re-rank), as on the answer page.
  const { retrieval } = loadSettings(globalThis.localStorage);
  const [generator, retriever, evaluator] = await Promise.all([
    services.generator(),
    services.retriever(retrieval),
    services.evaluator(),
  ]);
  const generatorName = generator.modelId ?? services.status.get().generator.models[0] ?? 'generator';
  // The same resolution the services used to start the evaluator, so the names are the models that ran.
  const config = evaluatorModelIds(location.search, document.baseURI);
  return {
    generator,
    writer: generator,
    retriever,
    embedder: evaluator.embedder,
    critic: evaluator.critic,
    relevanceScores: (q, texts, signal) => evaluator.relevanceScores(q, texts, signal),
    models: {
      generator: generatorName,
      writer: generatorName,
      embedder: config.embedder,
      nli: config.nli,
      reranker: config.reranker,
    },
    ...(opts.external ? { external: opts.external, online: () => navigator.onLine } : {}),
  };
}

/** The RAGAS ports for the answer page: the loaded generator writes, the evaluator embeds and checks support. */
export async function ragasPorts(services: Services): Promise<RagasPorts> {
  const [generator, evaluator] = await Promise.all([services.generator(), services.evaluator()]);
  const config = evaluatorModelIds(location.search, document.baseURI);
  const writer = generator.modelId ?? services.status.get().generator.models[0] ?? 'generator';
  return {
    writer: generator,
    embedder: evaluator.embedder,
    critic: evaluator.critic,
    models: { writer, embedder: config.embedder, nli: config.nli },
  };
}
