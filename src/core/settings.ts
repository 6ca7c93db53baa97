import { CoreInputError } from './errors';
import type { DecodeSettings, RankSettings, Weights } from './types';

/**
 * Each critique weight is a finite number. Kept with the other settings checks rather than beside
 * the scores it weighs (scores.ts): the page checks settings from its first paint, and loads the
 * scores only once an answer exists.
 */
export function validateWeights(w: Weights): void {
  for (const key of ['rel', 'sup', 'use', 'seq'] as const) {
    if (typeof w[key] !== 'number' || !Number.isFinite(w[key])) {
      throw new CoreInputError(`Weight '${key}' must be a finite number; got ${String(w[key])}.`);
    }
  }
}

const MODES = ['adaptive', 'always', 'never'] as const;
const SOURCES = ['auto', 'generator', 'evaluator', 'blend'] as const;
export const FINAL_PICKS = ['any-finished', 'deepest-level'] as const;

function positiveInteger(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 1) {
    throw new CoreInputError(`${name} must be a whole number of at least 1; got ${String(v)}.`);
  }
}

function unitInterval(name: string, v: number): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
    throw new CoreInputError(`${name} must be a number from 0 to 1; got ${String(v)}.`);
  }
}

export function validateDecodeSettings(s: DecodeSettings): void {
  if (!MODES.includes(s.mode)) {
    throw new CoreInputError(`Retrieval mode must be one of ${MODES.join(', ')}; got '${String(s.mode)}'.`);
  }
  if (!SOURCES.includes(s.critiqueSource)) {
    throw new CoreInputError(
      `Critique source must be one of ${SOURCES.join(', ')}; got '${String(s.critiqueSource)}'.`,
    );
  }
  unitInterval('The retrieval threshold δ', s.threshold);
  unitInterval('The blend weight', s.blend);
  positiveInteger('Beam width', s.beamWidth);
  positiveInteger('Maximum depth', s.maxDepth);
  positiveInteger('Passages per step', s.passagesPerStep);
  if (s.relevanceGate !== undefined) unitInterval('The relevance gate', s.relevanceGate);
  if (s.maxCandidates !== undefined && (!Number.isInteger(s.maxCandidates) || s.maxCandidates < 0)) {
    throw new CoreInputError(
      `The candidate budget must be a whole number of 0 (no limit) or more; got ${String(s.maxCandidates)}.`,
    );
  }
  if (s.stopAtFirstAnswer !== undefined && typeof s.stopAtFirstAnswer !== 'boolean') {
    throw new CoreInputError(`Stop at the first answer must be true or false; got ${String(s.stopAtFirstAnswer)}.`);
  }
}

export function validateRankSettings(r: RankSettings): void {
  if (!r || typeof r !== 'object' || !r.weights) throw new CoreInputError('Rank settings need a weights object.');
  validateWeights(r.weights);
  if (r.finalPick !== undefined && !FINAL_PICKS.includes(r.finalPick)) {
    throw new CoreInputError(`The final pick must be one of ${FINAL_PICKS.join(', ')}; got '${String(r.finalPick)}'.`);
  }
}
