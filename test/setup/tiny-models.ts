// globalSetup of every vitest project: (re)generate the tiny test models when they are
// missing or older than their generator or the texts their vocabulary comes from.
import { makeTinyGgufs, tinyGgufsStale } from '../../scripts/make-tiny-gguf';
import { makeTinyModels, tinyModelsStale } from '../../scripts/make-tiny-models';

export default function setup(): void {
  if (tinyModelsStale()) makeTinyModels();
  if (tinyGgufsStale()) makeTinyGgufs();
}
