import type { Services } from '../../app/services';
import type { ExternalSearch } from '../../core/ports';
import type { EvalPorts } from './run';

/** Model name for a role from the status panel's "role: model" entries. */
function modelFor(models: readonly string[], role: string): string | undefined {
  const hit = models.find((m) => m.startsWith(`${role}: `));
  return hit?.slice(role.length + 2);
}

/**
 * The evaluation page uses the same services as the answer page, so it measures exactly
 * the models and library the user has loaded.
 */
export async function evalPorts(services: Services, opts: { external?: ExternalSearch } = {}): Promise<EvalPorts> {
  const [generator, retriever, evaluator] = await Promise.all([services.generator(), services.retriever(), services.evaluator()]);
  const status = services.status.get();
  const generatorName = generator.modelId ?? status.generator.models[0] ?? 'generator';
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
      embedder: modelFor(status.evaluator.models, 'embedder') ?? 'evaluator embedder',
      nli: modelFor(status.evaluator.models, 'nli') ?? 'evaluator NLI',
    },
    ...(opts.external ? { external: opts.external, online: () => navigator.onLine } : {}),
  };
}
