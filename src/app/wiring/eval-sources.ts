// The page's services as the evaluation harness (src/eval-runner, below the app) needs them: the
// same generator, library and evaluator as the answer page, and the names of the models they run.
import type { EvalSources } from '../../eval-runner/connect';
import { evaluatorModelIds } from './evaluator-model-ids';
import type { Services } from './services';

export function evalSources(services: Services): EvalSources {
  return {
    generator: () => services.generator(),
    retriever: (settings) => services.retriever(settings),
    evaluator: () => services.evaluator(),
    generatorName: () => services.status.get().generator.models[0],
    // The same resolution the services used to start the evaluator.
    evaluatorModels: () => evaluatorModelIds(location.search, document.baseURI),
  };
}
