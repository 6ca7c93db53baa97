// Which model grades the candidates when the critique source is 'auto' (the default).
//
// Measured on real models (docs/benchmarks-answer.md, `npm run bench -- isrel`): a small
// prompted instruct model's own ISREL slot barely beats chance at telling a relevant passage
// from an irrelevant one, where the real embedder's similarity separates them well; CRAG
// (Table 4) and later work find the same of prompted small models. A native Self-RAG model
// was trained to write these tokens (its critic agrees with GPT-4 over 90 % of the time), so
// it keeps its own. Without the evaluator, the generator's tokens are all there is.
import type { CritiqueSource, ResolvedCritiqueSource } from './ports';

export function resolveCritiqueSource(
  source: CritiqueSource,
  has: { nativeGenerator: boolean; critic: boolean },
): ResolvedCritiqueSource {
  if (source !== 'auto') return source;
  if (has.nativeGenerator || !has.critic) return 'generator';
  return 'evaluator';
}
