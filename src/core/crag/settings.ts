// CRAG's settings as checked before use (resolveCragSettings); the settings themselves and their
// defaults are in defaults.ts, which the page's saved settings read without loading this check.
import { type CragSettings, DEFAULT_CRAG_SETTINGS, STRIP_POOLS } from './defaults';

export {
  type CragSettings,
  DEFAULT_CRAG_SETTINGS,
  type NoEvidencePolicy,
  STRIP_POOLS,
  type StripPool,
} from './defaults';

/** Fills defaults and rejects settings that cannot work, with a message naming the field. */
export function resolveCragSettings(partial: Partial<CragSettings> = {}): CragSettings {
  const s: CragSettings = { ...DEFAULT_CRAG_SETTINGS, ...partial };
  for (const key of ['upper', 'lower', 'stripThreshold'] as const) {
    const v = s[key];
    if (!Number.isFinite(v) || v < 0 || v > 1) {
      throw new RangeError(`CRAG setting "${key}" must be a number between 0 and 1 (got ${String(v)})`);
    }
  }
  if (s.lower > s.upper) {
    throw new RangeError(`CRAG setting "lower" (${s.lower}) must not exceed "upper" (${s.upper})`);
  }
  for (const key of ['stripTopK', 'sentencesPerStrip', 'k'] as const) {
    const v = s[key];
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(`CRAG setting "${key}" must be a whole number of at least 1 (got ${String(v)})`);
    }
  }
  if (!STRIP_POOLS.includes(s.stripPool)) {
    throw new RangeError(`CRAG setting "stripPool" must be 'per-passage' or 'across-passages'`);
  }
  if (s.noEvidence !== 'answer-without-retrieval' && s.noEvidence !== 'abstain') {
    throw new RangeError(`CRAG setting "noEvidence" must be 'answer-without-retrieval' or 'abstain'`);
  }
  return s;
}
