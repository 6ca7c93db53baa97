import { describe, expect, it } from 'vitest';
import { chunkText } from '../../../src/core/chunk';
import {
  citationLabel,
  headingPathAt,
  locatePassage,
  PLACE_NOT_KNOWN,
  placeLabel,
  type DocLayout,
} from '../../../src/core/source-location';

describe('passage places', () => {
  const pages: DocLayout = {
    pages: [
      { page: 1, start: 0 },
      { page: 2, start: 100 },
      { page: 4, start: 250 },
    ],
  };

  it('gives the page a passage starts on, and the last page when it runs over', () => {
    expect(locatePassage(pages, 10, 90)).toEqual({ page: 1 });
    expect(locatePassage(pages, 90, 120)).toEqual({ page: 1, pageEnd: 2 });
    // A passage ending exactly where the next page begins stays on its page.
    expect(locatePassage(pages, 100, 250)).toEqual({ page: 2 });
    // A page with no text (3) is skipped: the numbers are the document's own.
    expect(locatePassage(pages, 240, 300)).toEqual({ page: 2, pageEnd: 4 });
  });

  it('marks a passage on a recognised page as scanned', () => {
    const scan: DocLayout = {
      pages: [{ page: 1, start: 0 }],
      ocrLines: { 1: [{ text: 'Dear Margaret', box: [0.1, 0.1, 0.5, 0.15] }] },
    };
    expect(locatePassage(scan, 0, 10)).toEqual({ page: 1, scanned: true });
  });

  it('follows the heading path: a deeper heading nests, a heading of the same level replaces, an outer one closes', () => {
    const h = [
      { level: 1, title: 'Ch. 16', start: 0 },
      { level: 2, title: 'Threads', start: 50 },
      { level: 2, title: 'Using Message Passing', start: 200 },
      { level: 3, title: 'Channels', start: 300 },
      { level: 1, title: 'Ch. 17', start: 500 },
    ];
    expect(headingPathAt(h, 10)).toEqual(['Ch. 16']);
    expect(headingPathAt(h, 120)).toEqual(['Ch. 16', 'Threads']);
    expect(headingPathAt(h, 250)).toEqual(['Ch. 16', 'Using Message Passing']);
    expect(headingPathAt(h, 350)).toEqual(['Ch. 16', 'Using Message Passing', 'Channels']);
    expect(headingPathAt(h, 600)).toEqual(['Ch. 17']);
    expect(locatePassage({ headings: h }, 0, 10).headings).toEqual(['Ch. 16']);
    // Text before the first heading has no path.
    expect(locatePassage({ headings: [{ level: 2, title: 'Later', start: 40 }] }, 0, 10)).toEqual({});
  });

  it('maps every chunked passage of a paged text to the page its first character is on', () => {
    const page1 = 'The tide rises twice a day. '.repeat(20).trim();
    const page2 = 'The moon pulls the water towards it. '.repeat(20).trim();
    const text = `${page1}\n\n${page2}`;
    const layout: DocLayout = {
      pages: [
        { page: 1, start: 0 },
        { page: 2, start: page1.length + 2 },
      ],
    };
    const passages = chunkText({ docId: 'd', title: 'Tides', text }, { targetTokens: 40, overlapTokens: 0 });
    for (const p of passages) {
      const s = locatePassage(layout, p.start!, p.end!);
      expect(s.page).toBe(p.start! < page1.length ? 1 : 2);
      const crosses = p.start! < page1.length && p.end! > page1.length + 2;
      expect(s.pageEnd).toBe(crosses ? 2 : undefined);
    }
  });

  it('says the place in words, and says when a passage was stored before places were known', () => {
    expect(citationLabel({ title: 'Debian Policy', index: 3, source: { page: 12 } })).toBe('Debian Policy, p. 12');
    expect(placeLabel({ title: 'Debian Policy', source: { page: 12, pageEnd: 13 } })).toBe('pp. 12–13');
    expect(
      citationLabel({ title: 'Rust book', index: 0, source: { headings: ['Ch. 16', 'Using Message Passing'] } }),
    ).toBe('Rust book › Ch. 16 › Using Message Passing');
    // The document's title repeated as its first heading is said once.
    expect(
      citationLabel({
        title: 'Why the Sea Has Tides',
        index: 0,
        source: { headings: ['Why the Sea Has Tides', 'The Moon'] },
      }),
    ).toBe('Why the Sea Has Tides › The Moon');
    expect(citationLabel({ title: 'Notes', index: 4, source: {} })).toBe('Notes · passage 5');
    expect(placeLabel({ title: 'Old', source: undefined })).toBe(PLACE_NOT_KNOWN);
    expect(citationLabel({ title: 'Old', index: 1 })).toBe('Old · passage 2');
  });
});
