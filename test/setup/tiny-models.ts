// globalSetup of both vitest projects: (re)generate the tiny test models when they are
// missing or older than their generator or the texts their vocabulary comes from.
import { makeTinyModels, tinyModelsStale } from '../../scripts/make-tiny-models';

export default function setup(): void {
  if (tinyModelsStale()) makeTinyModels();
}
