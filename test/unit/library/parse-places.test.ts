// Each parser records where pages and headings stand in the text it extracts, and every
// passage prepared from it carries its place (pages for a PDF, the heading path elsewhere).
import { describe, expect, it } from 'vitest';
import { placeLabel } from '../../../src/core/source-location';
import { prepare } from '../../../src/library/ingest';
import { parseDocument, type RawFile } from '../../../src/library/parse';
import { loadPdfJsInNode } from '../../../src/library/parse/pdf-node';
import { makeDocx, makeEpub } from '../../doubles/office-files';
import { tinyPdf } from '../../doubles/tiny-pdf';

const enc = (s: string) => new TextEncoder().encode(s);
const file = (name: string, content: string | Uint8Array): RawFile => ({
  name,
  bytes: typeof content === 'string' ? enc(content) : content,
});

describe('places recorded while parsing', () => {
  it('a PDF: each page starts where its text starts, and passages carry their pages', async () => {
    const pages = [1, 2, 3].map((n) =>
      Array.from({ length: 12 }, (_, i) => `Page ${n} line ${i} tells of the harbour lights and the keeper.`),
    );
    const parsed = await parseDocument(file('manual.pdf', tinyPdf(pages)), { pdf: loadPdfJsInNode });
    const starts = parsed.layout!.pages!;
    expect(starts.map((p) => p.page)).toEqual([1, 2, 3]);
    for (const s of starts) expect(parsed.text.slice(s.start)).toMatch(new RegExp(`^Page ${s.page} line 0`));
    const { passages } = await prepare(parsed, { targetTokens: 60, overlapTokens: 20 });
    for (const p of passages) {
      const first = Number(/Page (\d)/.exec(p.text)![1]);
      const last = Number([...p.text.matchAll(/Page (\d)/g)].pop()![1]);
      expect(p.source?.page).toBe(first);
      expect(p.source?.pageEnd ?? first).toBe(last);
    }
    expect(passages.some((p) => p.source?.pageEnd)).toBe(true);
  });

  it('a PDF whose pages are numbered in print: passages carry the printed numbers, and citations give them', async () => {
    const pages = [1, 2, 3, 4].map((n) =>
      Array.from({ length: 12 }, (_, i) => `Sheet ${n} line ${i} tells of the harbour lights and the keeper.`),
    );
    // Two front-matter pages (i, ii), then the body numbered from 1: the file's page 3 is printed "1".
    const pdf = tinyPdf(pages, { pageLabels: '0 << /S /r >> 2 << /S /D >>' });
    const parsed = await parseDocument(file('manual.pdf', pdf), { pdf: loadPdfJsInNode });
    expect(parsed.layout!.pages!.map((p) => p.label)).toEqual(['i', 'ii', '1', '2']);
    const { passages } = await prepare(parsed, { targetTokens: 60, overlapTokens: 20 });
    const onThird = passages.find((p) => p.source?.page === 3 && p.source.pageEnd === undefined)!;
    expect(onThird.source?.pageLabel).toBe('1');
    expect(placeLabel({ title: 'manual', source: onThird.source! })).toBe('p. 1');
    const spanning = passages.find((p) => p.source?.page === 2 && p.source.pageEnd === 3)!;
    expect(placeLabel({ title: 'manual', source: spanning.source! })).toBe('pp. ii–1');
    // A PDF without labels keeps the file's numbers, and stores nothing more.
    const plain = await parseDocument(file('plain.pdf', tinyPdf(pages)), { pdf: loadPdfJsInNode });
    expect(plain.layout!.pages!.every((p) => p.label === undefined)).toBe(true);
  });

  it('HTML: headings as the reader sees them, scripts and hidden headings left out', async () => {
    const html = `<html><head><title>Guide</title><script>document.write('<h2>Injected</h2>')</script></head><body>
      <h1>Installing</h1><p>Run the installer.</p><h2>On  <em>Debian</em></h2><p>Use apt to install the package.</p>
      <template><h2>Hidden</h2></template><h2>On macOS</h2><p>Use the disk image.</p></body></html>`;
    const parsed = await parseDocument(file('guide.html', html));
    expect(parsed.layout?.headings?.map((h) => [h.level, h.title])).toEqual([
      [1, 'Installing'],
      [2, 'On Debian'],
      [2, 'On macOS'],
    ]);
    for (const h of parsed.layout!.headings!)
      expect(parsed.text.slice(h.start, h.start + h.title.length)).toBe(h.title);
    const { passages } = await prepare(parsed, { targetTokens: 8, overlapTokens: 0 });
    const apt = passages.find((p) => p.text.includes('apt'))!;
    expect(apt.source?.headings).toEqual(['Installing', 'On Debian']);
    expect(placeLabel(apt)).toBe('Installing › On Debian');
  });

  it('Markdown: ATX headings, not the # lines inside fenced code', async () => {
    const md =
      '# Tides\n\nIntro text.\n\n## The Moon\n\n```sh\n# not a heading\n```\n\nThe moon pulls the sea.\n\n### Spring tides\n\nBigger ones.';
    const parsed = await parseDocument(file('tides.md', md));
    expect(parsed.layout?.headings?.map((h) => h.title)).toEqual(['Tides', 'The Moon', 'Spring tides']);
    const { passages } = await prepare(parsed, { targetTokens: 6, overlapTokens: 0 });
    expect(passages.find((p) => p.text.includes('Bigger'))!.source?.headings).toEqual([
      'Tides',
      'The Moon',
      'Spring tides',
    ]);
    // The title is the first heading: the label says the rest of the path.
    expect(placeLabel(passages.find((p) => p.text.includes('pulls'))!)).toBe('The Moon');
  });

  it('EPUB chapters and Word headings through the same HTML path', async () => {
    const book = makeEpub('The Rust Book', [
      '<h1>Ch. 15</h1><p>Smart pointers.</p>',
      '<h1>Ch. 16</h1><h2>Using Message Passing</h2><p>Channels send values between threads.</p>',
    ]);
    const parsed = await parseDocument(file('rust.epub', book));
    const { passages } = await prepare(parsed, { targetTokens: 6, overlapTokens: 0 });
    expect(passages.find((p) => p.text.includes('Channels'))!.source?.headings).toEqual([
      'Ch. 16',
      'Using Message Passing',
    ]);
    const docx = await parseDocument(
      file('memo.docx', makeDocx([{ text: 'Budget', style: 'Heading1' }, { text: 'We spent less than planned.' }])),
    );
    expect(docx.layout?.headings?.map((h) => h.title)).toEqual(['Budget']);
  });

  it('plain text has no place but is known to be new', async () => {
    const parsed = await parseDocument(file('notes.txt', 'Just a note.'));
    expect(parsed.layout).toBeUndefined();
    const { passages } = await prepare(parsed);
    expect(passages[0]!.source).toEqual({});
  });
});
