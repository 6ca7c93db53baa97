import { describe, expect, it } from 'vitest';
import type { Candidate, ScoredCandidate } from '../../../../src/core/types';
import { whyChosen, whyRow } from '../../../../src/app/view/why-chosen';

const scored = (id: string, s: Partial<ScoredCandidate>): ScoredCandidate => ({
  candidate: { id } as Candidate,
  segmentScore: 0.5,
  pathScore: 1,
  inBeam: true,
  ...s,
});

describe('why a candidate is shown as chosen', () => {
  it('says the chosen one is on the best finished path, with its path score', () => {
    expect(whyChosen(scored('a', { pathScore: 1.23456 }))).toMatch(/best finished answer \(path score 1\.235\)/);
    expect(whyChosen(undefined)).toMatch(/No candidate/);
  });
  it('says what became of every other candidate', () => {
    expect(whyRow(scored('a', {}), 'a')).toMatch(/best finished answer’s path/);
    expect(whyRow(scored('b', { pruned: 'hard-constraint', inBeam: false }), 'a')).toBe('dropped (hard-constraint)');
    expect(whyRow(scored('c', { inBeam: false }), 'a')).toMatch(/^not kept/);
    expect(whyRow(scored('d', { segmentScore: 0.9 }), 'a')).toMatch(/does not run through it/);
  });
});
