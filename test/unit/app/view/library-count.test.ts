import { describe, expect, it } from 'vitest';
import { docsCount, libraryLabel } from '../../../../src/app/view/library-panel';

const row = (i: number) => ({ id: `d${i}`, title: `Doc ${i}`, name: `doc-${i}.md`, passages: 3 });
const own = (n: number) => Array.from({ length: n }, (_, i) => row(i));
const samples = (n: number) => Array.from({ length: n }, (_, i) => ({ ...row(1000 + i), sample: true as const }));

describe('the library’s document count', () => {
  it('is the same story in the phone’s heading and the Find box: own documents and samples apart', () => {
    // Issue 47: the heading said 15 documents where Find said 20 (five samples counted only there).
    const docs = [...own(15), ...samples(5)];
    expect(docsCount(docs)).toBe('15 documents + 5 samples');
    expect(libraryLabel({ docs, busy: false })).toBe('Library: 15 documents + 5 samples');
  });

  it('counts one of each in the singular, and samples alone as sample documents', () => {
    expect(docsCount([...own(1), ...samples(1)])).toBe('1 document + 1 sample');
    expect(docsCount(own(1_200))).toBe('1,200 documents');
    expect(docsCount(samples(5))).toBe('5 sample documents');
  });
});
