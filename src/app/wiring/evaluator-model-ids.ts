// The names of the evaluator models the services start for this address, so reports name the
// models that ran. Kept apart from evaluator-config.ts so the first paint does not pull the config.
import { resolveEvaluatorConfig } from '../../evaluator/config';
import { evaluatorInput } from './evaluator-config';

export interface EvaluatorModelIds {
  embedder: string;
  nli: string;
  reranker: string;
}

/** The same resolution the services use to start the evaluator. */
export function evaluatorModelIds(search: string, baseURI: string): EvaluatorModelIds {
  const config = resolveEvaluatorConfig(evaluatorInput(search), baseURI);
  return { embedder: config.embedder.id, nli: config.nli.id, reranker: config.reranker.id };
}
