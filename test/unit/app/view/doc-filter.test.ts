import { describe, expect, it } from 'vitest';
import { filterDocs, moreText } from '../../../../src/app/view/doc-filter';
import type { LibraryDocView } from '../../../../src/app/state/library';

const doc = (i: number, title: string, name?: string): LibraryDocView => ({
  id: `d${i}`,
  title,
  passages: 1,
  ...(name ? { name } : {}),
});

describe('the library list filter', () => {
  const docs = [
    doc(1, 'Baking Sourdough Bread', 'bread.md'),
    doc(2, 'Why the Sea Has Tides', 'notes/tides.txt'),
    doc(3, 'Ownership in Rust', 'rust-book.pdf'),
  ];

  it('finds by every word of the query in the title or file name, in any case', () => {
    expect(filterDocs(docs, 'sea TIDES').shown.map((d) => d.id)).toEqual(['d2']);
    expect(filterDocs(docs, 'pdf').shown.map((d) => d.id)).toEqual(['d3']);
    expect(filterDocs(docs, 'bread rust').matching).toBe(0);
    expect(filterDocs(docs, '   ').shown).toHaveLength(3);
  });

  it('renders at most the limit, and says how many more there are and how to reach them', () => {
    const many = Array.from({ length: 1234 }, (_, i) => doc(i, `Report ${i}`));
    const all = filterDocs(many, '', 300);
    expect(all.shown).toHaveLength(300);
    expect(moreText(all, many.length, '')).toBe('Showing 300 of 1,234 documents: type in Find to narrow the list.');
    const some = filterDocs(many, 'report 1', 300);
    expect(some.matching).toBe(many.filter((d) => d.title.includes('1')).length); // each word on its own: "report" and "1"
    expect(moreText(some, many.length, 'report 1')).toMatch(/^Showing 300 of \d+ matching documents/);
    const few = filterDocs(many, 'report 1233', 300);
    expect(few.shown.map((d) => d.id)).toEqual(['d1233']);
    expect(moreText(few, many.length, 'report 1233')).toBeNull();
    expect(moreText(filterDocs(many, 'zebra'), many.length, 'zebra')).toBe(
      'No document’s title or file name holds “zebra”.',
    );
  });
});
