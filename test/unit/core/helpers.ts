import { PAPER_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';
import type { RelProbs, SupProbs, UseProbs } from '../../../src/core/ports';
import type { DecodeResult, DecodeSettings, RankSettings } from '../../../src/core/types';

export const settings = (o: Partial<DecodeSettings> = {}): DecodeSettings => ({ ...PAPER_DECODE_SETTINGS, ...o });
export const rankWith = (w: Partial<RankSettings['weights']> = {}, hardConstraints = false): RankSettings => ({
  weights: { ...DEFAULT_RANK_SETTINGS.weights, ...w },
  hardConstraints,
});

export const rel = (relevant: number): RelProbs => ({ relevant, irrelevant: 1 - relevant });
export const sup = (full: number, partial: number, none: number): SupProbs => ({ full, partial, none });
/** All probability on [Utility:k]. */
export const use = (k: 1 | 2 | 3 | 4 | 5): UseProbs => [1, 2, 3, 4, 5].map((i) => (i === k ? 1 : 0)) as UseProbs;

export const yes = { retrieval: 0.9, noRetrieval: 0.1 };
export const no = { retrieval: 0.1, noRetrieval: 0.9 };

export const bestTexts = (r: DecodeResult): string[] => r.ranking.best.map((s) => s.candidate.text);
