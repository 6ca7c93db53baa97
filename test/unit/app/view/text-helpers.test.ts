import { describe, expect, it } from 'vitest';
import { sentenceRanges, splitByRange, supportingSentence } from '../../../../src/app/view/highlight';
import { describeProgress, formatBytes, timeLeft } from '../../../../src/app/view/progress';

describe('supporting sentence highlight', () => {
  const passage = 'Bees live in colonies. The queen lays up to 2000 eggs a day!\nWorkers forage for nectar.';

  it("picks the sentence that shares the segment's words", () => {
    const r = supportingSentence(passage, 'A queen can lay 2000 eggs each day.');
    expect(r && passage.slice(r.start, r.end)).toBe('The queen lays up to 2000 eggs a day!');
  });

  it('returns nothing when no content word overlaps', () => {
    expect(supportingSentence(passage, 'Tides follow the moon.')).toBeNull();
  });

  it('splits into text pieces that rebuild the passage exactly, markup included', () => {
    const evil = 'Safe start. The <img src=x onerror=alert(1)> queen here. End';
    const r = supportingSentence(evil, 'queen');
    const parts = splitByRange(evil, r);
    expect(parts.map((p) => p.text).join('')).toBe(evil);
    expect(parts.filter((p) => p.mark).map((p) => p.text)).toEqual(['The <img src=x onerror=alert(1)> queen here.']);
    expect(sentenceRanges('One. Two').map((x) => x.end - x.start)).toEqual([4, 3]);
  });
});

describe('progress text', () => {
  it('shows bytes and an estimate of time left from the rate so far', () => {
    expect(formatBytes(1536)).toBe('1.5 KB');
    // Decimal units, as the OS and the storage estimate show them: a 1000-byte file is 1.0 KB.
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1.0 KB');
    expect(formatBytes(1.5e12)).toBe('1.5 TB');
    expect(formatBytes(Number.NaN)).toBe('?');
    expect(timeLeft({ loaded: 25, total: 100, startedAt: 0, now: 1000 })).toBe(3000);
    expect(describeProgress({ loaded: 50e6, total: 100e6, startedAt: 0, now: 10_000 })).toBe(
      '50 MB of 100 MB, about 10 s left',
    );
    expect(timeLeft({ loaded: 0, total: 100, startedAt: 0, now: 1000 })).toBeNull();
    expect(describeProgress({ loaded: 2048, total: null, startedAt: 0, now: 5 })).toBe('2.0 KB');
  });
});

describe('ingestion progress', () => {
  it('counts passages when the job is measured in passages', () => {
    expect(describeProgress({ loaded: 10, total: 40, startedAt: 0, now: 2000, unit: 'passages' })).toBe(
      '10 of 40 passages, about 6 s left',
    );
  });
});
