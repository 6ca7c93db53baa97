// The harness's ports from the page's services. It sits below the app: the app hands it what it
// needs (app/wiring/eval-sources.ts) and the settings from their one owner, the controller.
import type { Critic, Embedder, ExternalSearch, Generator, Retriever, Writer } from '../core/ports';
import type { RetrievalSettings } from '../core/hybrid';
import type { RagasPorts } from '../core/ragas/evaluate';
import type { EvalPorts } from './run';

/** What the harness needs from the page's services. */
export interface EvalSources {
  /** The loaded generator, which also writes RAGAS's statements and questions; its model's id where known. */
  generator(): Promise<Generator & Writer & { readonly modelId?: string | undefined }>;
  retriever(settings: RetrievalSettings): Promise<Retriever>;
  evaluator(): Promise<{ embedder: Embedder; critic: Critic; relevanceScores: EvalPorts['relevanceScores'] }>;
  /** The generator's name as the status panel shows it, for a handle that has no id. */
  generatorName(): string | undefined;
  /** The evaluator models the services started for this address, so reports name the models that ran. */
  evaluatorModels(): { embedder: string; nli: string; reranker: string };
}

/**
 * The evaluation page uses the same services as the answer page, so it measures exactly
 * the models and library the user has loaded, searching as the user's retrieval setting says
 * (words / meaning / both, re-rank), as on the answer page.
 */
export async function evalPorts(
  sources: EvalSources,
  retrieval: RetrievalSettings,
  opts: { external?: ExternalSearch } = {},
): Promise<EvalPorts> {
  const [generator, retriever, evaluator] = await Promise.all([
    sources.generator(),
    sources.retriever(retrieval),
    sources.evaluator(),
  ]);
  const generatorName = generator.modelId ?? sources.generatorName() ?? 'generator';
  const config = sources.evaluatorModels();
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
export async function ragasPorts(sources: EvalSources): Promise<RagasPorts> {
  const [generator, evaluator] = await Promise.all([sources.generator(), sources.evaluator()]);
  const config = sources.evaluatorModels();
  const writer = generator.modelId ?? sources.generatorName() ?? 'generator';
  return {
    writer: generator,
    embedder: evaluator.embedder,
    critic: evaluator.critic,
    models: { writer, embedder: config.embedder, nli: config.nli },
  };
}
