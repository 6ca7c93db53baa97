import type { DecodeSettings, RankSettings } from './types';

// The paper's inference settings (Sec. 4.3): weights 1.0 / 1.0 / 0.5, threshold 0.2,
// beam width 2. Two choices differ, both for cost in a browser tab:
// - passagesPerStep 3, not the paper's 5. Each passage is one more segment generation
//   per expanded node, and WebLLM decodes them one after another, so a step costs
//   B × K generations: 6 instead of 10. Three still gives the critique a real choice.
// - maxDepth 6: the reference's long-form runs used 7 segments of ~15 tokens; a
//   question about one's own documents rarely needs more than a few sentences.
export const DEFAULT_DECODE_SETTINGS: Readonly<DecodeSettings> = Object.freeze({
  mode: 'adaptive',
  threshold: 0.2,
  beamWidth: 2,
  maxDepth: 6,
  passagesPerStep: 3,
  critiqueSource: 'generator',
  blend: 0.5,
});

export const DEFAULT_RANK_SETTINGS: Readonly<RankSettings> = Object.freeze({
  weights: Object.freeze({ rel: 1.0, sup: 1.0, use: 0.5, seq: 0 }),
  hardConstraints: false,
});
