import type { DecodeSettings, RankSettings } from './types';

// The paper's inference settings (Sec. 4.3): weights 1.0 / 1.0 / 0.5, threshold 0.2,
// beam width 2, and the reference's depth. One choice differs, for cost in a browser tab:
// - passagesPerStep 3, not the paper's 5. Each passage is one more segment generation
//   per expanded node, and WebLLM decodes them one after another, so a step costs
//   B × K generations: 6 instead of 10. Three still gives the critique a real choice.
// - (same as the reference) maxDepth 6 segment levels, as in the reference's long-form runs: they pass --max_depth 7,
//   and level 0 there is the prompt, so 6 levels of generated segments of up to 300 tokens
//   each (--max_new_tokens 300). Our segments are shorter (the generator stops one at up to
//   96 tokens, src/generator/shared/self-rag.ts), so the critique judges a claim or two,
//   not a page, and 6 of them cover the few sentences a question about one's documents needs.
// Three more, so that an answer costs at most about twice a plain RAG answer on a CPU
// (measured with real models in docs/benchmarks-answer.md):
// - critiqueSource 'auto': the evaluator grades a prompted instruct model's candidates, a native
//   Self-RAG model grades its own (./critique-source.ts);
// - relevanceGate 0.5: no candidate is written from a passage the evaluator's relevance model
//   already judged irrelevant (the step's best passage is always written);
// - stopAtFirstAnswer: once the best path has ended the answer, the other beams stop;
// - maxCandidates 3: one candidate costs about half a plain answer (its passage prefilled,
//   its segment and grades decoded), so three and the retrieval decision stay near twice one.
export const DEFAULT_DECODE_SETTINGS: Readonly<DecodeSettings> = Object.freeze({
  mode: 'adaptive',
  threshold: 0.2,
  beamWidth: 2,
  maxDepth: 6,
  passagesPerStep: 3,
  critiqueSource: 'auto',
  blend: 0.5,
  relevanceGate: 0.5,
  stopAtFirstAnswer: true,
  maxCandidates: 3,
});

/** The paper's search as this project shipped it before the cost levers: the "before" of the answer-cost bench. */
export const PAPER_DECODE_SETTINGS: Readonly<DecodeSettings> = Object.freeze({
  ...DEFAULT_DECODE_SETTINGS,
  critiqueSource: 'generator',
  relevanceGate: 0,
  stopAtFirstAnswer: false,
  maxCandidates: 0,
});

export const DEFAULT_RANK_SETTINGS: Readonly<RankSettings> = Object.freeze({
  weights: Object.freeze({ rel: 1.0, sup: 1.0, use: 0.5, seq: 0 }),
  hardConstraints: false,
  // Every finished path competes; the reference's 'deepest-level' is one setting away (beam.ts).
  finalPick: 'any-finished',
});
