import { describe, expect, it } from 'vitest';
import { reportShelf } from '../../../../src/app/persist/batch-reports';
import type { BatchReportView } from '../../../../src/app/persist/batch-reports';

function memory() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  };
}

const report = (id: number): BatchReportView => ({
  id,
  added: 3,
  already: 1,
  refused: [{ name: 'photo.png', reason: 'no text' }],
  notes: [],
  notEmbedded: [{ reason: 'r', names: ['a.md'] }],
  skipped: 0,
  aborted: false,
  notTried: 0,
});

describe('batch reports kept until dismissed', () => {
  it('reads back what was saved, and forgets them all once the last is dismissed', () => {
    const s = memory();
    reportShelf(s).save([report(1), report(2)]);
    expect(reportShelf(s).load()).toEqual([report(1), report(2)]);
    reportShelf(s).save([]);
    expect(s.m.size).toBe(0);
    expect(reportShelf(s).load()).toEqual([]);
  });

  it('drops what is not a report (hand edits, older versions) and survives broken JSON or no storage', () => {
    const s = memory();
    s.setItem(
      'selfrag.batchReports',
      JSON.stringify([report(1), { id: 'x' }, { ...report(2), refused: [{ name: 1 }] }, null]),
    );
    expect(reportShelf(s).load()).toEqual([report(1)]);
    s.setItem('selfrag.batchReports', '{ broken');
    expect(reportShelf(s).load()).toEqual([]);
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => undefined,
    };
    expect(reportShelf(throwing).load()).toEqual([]);
    expect(() => reportShelf(throwing).save([report(1)])).not.toThrow();
  });
});
