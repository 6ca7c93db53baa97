import { describe, expect, it } from 'vitest';
import {
  coverageNotice,
  meaningCoverage,
  partialCoverage,
  sanitizeCoverage,
} from '../../../../src/app/view/meaning-coverage';

describe('how much of the library search by meaning reaches', () => {
  it('counts passages with vectors out of all the library’s passages, from its list', () => {
    const docs = [
      { passages: 1_000 },
      { passages: 240 },
      { passages: 1_500, pending: true },
      { passages: 360, pending: true },
    ];
    expect(meaningCoverage(docs)).toEqual({ embedded: 1_240, total: 3_100 });
    expect(coverageNotice(meaningCoverage(docs))).toBe(
      'Meaning search covers 1,240 of 3,100 passages so far; the rest are found by their words.',
    );
  });

  it('says nothing when every passage has its vector, or when the library is empty', () => {
    expect(meaningCoverage([{ passages: 3 }, { passages: 4 }])).toEqual({ embedded: 7, total: 7 });
    expect(coverageNotice(meaningCoverage([{ passages: 3 }, { passages: 4 }]))).toBeNull();
    expect(coverageNotice(meaningCoverage([]))).toBeNull();
    expect(partialCoverage({ embedded: 7, total: 7 })).toBeNull();
    expect(partialCoverage(undefined)).toBeNull();
  });

  it('says so when no passage has a vector yet, and counts one passage as one', () => {
    expect(coverageNotice(meaningCoverage([{ passages: 1, pending: true }]))).toBe(
      'Meaning search covers 0 of 1 passage so far; the rest are found by their words.',
    );
  });

  it('keeps a stored coverage only when it is one (a thread file may hold anything)', () => {
    expect(sanitizeCoverage({ embedded: 2, total: 5 })).toEqual({ embedded: 2, total: 5 });
    for (const bad of [
      null,
      'x',
      [],
      { embedded: 6, total: 5 },
      { embedded: -1, total: 5 },
      { embedded: 1.5, total: 5 },
    ])
      expect(sanitizeCoverage(bad)).toBeNull();
    expect(sanitizeCoverage({ embedded: 5, total: 5 })).toBeNull();
  });
});
