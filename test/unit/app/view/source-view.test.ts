// What the source viewer shows, decided without the DOM: the sentence's place in the
// document, the page it is on, the text pieces around it, the text-layer items and the
// recognised lines to mark; and the embed's citation with its place.
import { describe, expect, it } from 'vitest';
import { citationOf } from '../../../../src/app/view/embed-answer';
import {
  itemRanges,
  itemsHolding,
  pdfPageLabel,
  linesHolding,
  pageIndexAt,
  pagePieces,
  pdfPageOf,
  sentenceInDocument,
  STRETCH_CHARS,
  textPages,
} from '../../../../src/app/view/source-view';
import type { Passage } from '../../../../src/core/ports';

const text =
  'First page text here.\n\nThe moon pulls the sea. Tides rise twice a day. The sun helps a little.\n\nThird page.';
const passage: Passage = {
  id: 'd#1',
  docId: 'd',
  title: 'Tides',
  index: 1,
  start: 23,
  end: 94,
  text: text.slice(23, 94),
  source: { page: 2 },
};
const layout = {
  pages: [
    { page: 1, start: 0 },
    { page: 2, start: 23 },
    { page: 3, start: 96 },
  ],
};

describe('source viewer decisions', () => {
  it('finds the supporting sentence in the document and the page it stands on', () => {
    const s = sentenceInDocument(passage, 'tides rise twice each day');
    expect(text.slice(s.start, s.end)).toBe('Tides rise twice a day.');
    expect(pdfPageOf(passage, layout, s)).toBe(2);
    // Without a layout (an old document), the passage's own page, else page 1.
    expect(pdfPageOf(passage, undefined, s)).toBe(2);
    expect(pdfPageOf({ ...passage, source: {} }, undefined, s)).toBe(1);
  });

  it('cuts text into the document pages, or into stretches at paragraph breaks', () => {
    const pages = textPages(text, layout);
    expect(pages.map((p) => [p.number, text.slice(p.start, p.end).trim().slice(0, 5)])).toEqual([
      [1, 'First'],
      [2, 'The m'],
      [3, 'Third'],
    ]);
    const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30)}`).join('\n\n');
    const stretches = textPages(long, undefined);
    expect(stretches.length).toBeGreaterThan(1);
    expect(stretches.every((p) => p.end - p.start <= STRETCH_CHARS)).toBe(true);
    expect(stretches.map((p) => long.slice(p.start, p.end)).join('')).toBe(long);
    // Each stretch but the last ends at a paragraph break.
    for (const p of stretches.slice(0, -1)) expect(long.slice(p.end - 2, p.end)).toBe('\n\n');
    expect(pageIndexAt(stretches, long.indexOf('Paragraph 39'))).toBe(stretches.length - 1);
  });

  it('marks the sentence inside the passage inside the page', () => {
    const s = sentenceInDocument(passage, 'tides rise twice');
    const pieces = pagePieces(text, textPages(text, layout)[1]!, { start: 23, end: 94 }, s);
    expect(pieces.map((p) => p.kind)).toEqual(['passage', 'sentence', 'passage', 'plain']);
    expect(pieces.find((p) => p.kind === 'sentence')?.text).toBe('Tides rise twice a day.');
  });

  it('finds the sentence across text-layer items that break it differently', () => {
    const items = ['The moon pulls the sea. Tides ri', 'se twice', ' a day. The sun', 'helps a little.'];
    expect(itemsHolding(items, 'Tides rise twice a day.')).toEqual([0, 1, 2]);
    // A hyphen at a line end in the PDF, and its start on the page before.
    expect(itemsHolding(['Tides rise twi-', 'ce a day.'], 'Tides rise twice a day.')).toEqual([0, 1]);
    expect(itemsHolding(['nothing like it'], 'Tides rise twice a day.')).toEqual([]);
    const long = 'The lighthouse keeper recorded seventeen storms in the winter of 1893 and every one of them.';
    expect(itemsHolding(['The lighthouse keeper recorded seventeen storms in the winter'], long)).toEqual([0]);
  });

  it('boxes the recognised lines most of whose words are in the sentence', () => {
    const lines = [
      { text: 'Dear Margaret, the swallows', box: [0, 0, 1, 0.1] as [number, number, number, number] },
      { text: 'returned to the barn on Tuesday', box: [0, 0.1, 1, 0.2] as [number, number, number, number] },
      { text: 'Father says the hay will be', box: [0, 0.2, 1, 0.3] as [number, number, number, number] },
    ];
    expect(linesHolding(lines, 'Dear Margaret, the swallows returned to the barn on Tuesday morning.')).toEqual([0, 1]);
  });

  it('boxes every line a sentence touches, the one it starts in the middle of included', () => {
    const box = (i: number) => [0, i / 10, 1, (i + 1) / 10] as [number, number, number, number];
    const lines = [
      'Entry 3: the harbour kept its charts in good order.',
      'Rope lockers were tarred in May. The lighthouse keeper recorded seventeen',
      'storms in the winter of 1893 in a green ledger.',
      'The ledger is kept in the harbour office.',
    ].map((text, i) => ({ text, box: box(i) }));
    expect(
      linesHolding(lines, 'The lighthouse keeper recorded seventeen storms in the winter of 1893 in a green ledger.'),
    ).toEqual([1, 2]);
  });

  it('gives the sentence’s characters in each text item, not the whole item', () => {
    const items = [
      'Rope lockers were tarred in May. The quartermaster counted nineteen brass lanterns',
      'in the cellar by the slipway. Each lantern burns paraffin.',
    ];
    const sentence = 'The quartermaster counted nineteen brass lanterns in the cellar by the slipway.';
    const ranges = itemRanges(items, sentence);
    expect(ranges.map((r) => items[r.item]!.slice(r.start, r.end))).toEqual([
      'The quartermaster counted nineteen brass lanterns',
      'in the cellar by the slipway.',
    ]);
  });

  it('names a PDF page by the number printed on it where the PDF labels its pages', () => {
    const labels = ['T-1', 'T-2', 'i', '1', '2'];
    expect(pdfPageLabel(5, 36, labels)).toBe('Page 2 (5 of 36 in the file)');
    expect(pdfPageLabel(3, 36, labels)).toBe('Page i (3 of 36 in the file)');
    expect(pdfPageLabel(2, 3, ['1', '2', '3'])).toBe('Page 2 of 3');
    expect(pdfPageLabel(2, 3, null)).toBe('Page 2 of 3');
  });

  it('gives the embed the place where it is known, nothing more where it is not', () => {
    expect(citationOf({ ...passage, source: { page: 2, pageEnd: 3 } })).toEqual({
      passageId: 'd#1',
      title: 'Tides',
      place: 'pp. 2–3',
      page: 2,
      pageEnd: 3,
    });
    expect(citationOf({ ...passage, source: { headings: ['Tides', 'The Moon'] } })).toEqual({
      passageId: 'd#1',
      title: 'Tides',
      place: 'The Moon',
      headings: ['Tides', 'The Moon'],
    });
    const { source: _s, ...old } = passage;
    expect(citationOf(old)).toEqual({ passageId: 'd#1', title: 'Tides' });
  });
});
