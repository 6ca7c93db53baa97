// A PDF page's lines become paragraphs, code lines, list items and headings as a reader sees
// them. The runs below have the shape pdf.js's getTextContent() gives (a transform whose last
// two numbers are x and y, a height that is the font size, a font name whose style says
// monospace), laid out as TeX and DocBook lay out manuals: 10-point body on 13-point lines.
import { describe, expect, it } from 'vitest';
import {
  bodyMetrics,
  headingSizes,
  layoutPage,
  pageLines,
  runningLines,
} from '../../../../src/library/parse/pdf-lines';

const styles = { sans: { fontFamily: 'sans-serif' }, mono: { fontFamily: 'monospace' } };

/** One line's run: text at (x, y), `size` points, about half a point wide per character per point. */
function run(str: string, x: number, y: number, size = 10, font: 'sans' | 'mono' = 'sans') {
  return {
    str,
    hasEOL: true,
    transform: [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
    fontName: font,
  };
}

/** A page of lines from the top, each [text, extra gap before it, size, font, indent]. */
function page(spec: Array<[string, number?, number?, ('sans' | 'mono')?, number?]>) {
  let y = 700;
  return pageLines(
    spec.map(([text, gap = 0, size = 10, font = 'sans', indent = 0]) => {
      y -= 13 + gap;
      return run(text, 72 + indent, y, size, font);
    }),
    styles,
  );
}

const body = (n: number) => `Line ${n} of a long paragraph of body text that runs right up to the margin of the page`;

describe('PDF lines to text', () => {
  it('joins a paragraph wrapped at the margin, and starts a new one at a wider gap or a short last line', () => {
    const lines = page([
      [body(1)],
      [body(2)],
      ['and ends here.'],
      ['The next paragraph starts on the next line.'],
      [body(3), 8],
      [body(4)],
    ]);
    const m = bodyMetrics([lines]);
    expect(layoutPage(lines, m, []).text).toBe(
      `${body(1)} ${body(2)} and ends here.\n\nThe next paragraph starts on the next line.\n\n${body(3)} ${body(4)}`,
    );
  });

  it('keeps code lines apart, list items apart, and a word broken at the margin with its hyphen', () => {
    const lines = page([
      [`${body(1)} manip-`],
      ['ulation of the data.'],
      ['fn main() {', 4, 10, 'mono'],
      ['let x = 1;', 0, 10, 'mono', 20],
      ['}', 0, 10, 'mono'],
      ['• first item of the list', 4],
      ['• second item of the list'],
    ]);
    const m = bodyMetrics([lines, page([[body(5)], [body(6)], [body(7)]])]);
    expect(layoutPage(lines, m, []).text).toBe(
      `${body(1)} manip-ulation of the data.\n\nfn main() {\nlet x = 1;\n}\n\n• first item of the list\n\n• second item of the list`,
    );
  });

  it('makes lines set larger than the body headings, the largest level 1, a heading on two lines one heading', () => {
    const lines = page([
      ['4 Function reference', 10, 17],
      ['asn1 der decoding', 6, 12],
      [body(1), 4],
      ['asn1 der coding and its', 6, 12],
      ['friends', 0, 12],
      [body(2), 4],
    ]);
    const m = bodyMetrics([lines, page([[body(3)], [body(4)], [body(5)], [body(6)]])]);
    const sizes = headingSizes([lines], m);
    const { text, headings } = layoutPage(lines, m, sizes);
    expect(headings).toEqual([
      { level: 1, title: '4 Function reference', start: 0 },
      { level: 2, title: 'asn1 der decoding', start: text.indexOf('asn1 der decoding') },
      { level: 2, title: 'asn1 der coding and its friends', start: text.indexOf('asn1 der coding') },
    ]);
    expect(text).toContain('asn1 der coding and its friends\n\nLine 2');
  });

  it('leaves out a running head and page number that repeat on the tops and bottoms of pages', () => {
    const pages = Array.from({ length: 8 }, (_, i) =>
      page([[`Chapter 4: Function reference ${10 + i}`], [body(i), 10], [body(i + 1)], [`${10 + i}`, 20]]),
    );
    const running = runningLines(pages);
    const m = bodyMetrics(pages);
    const text = layoutPage(pages[3]!, m, [], running).text;
    expect(text).toBe(`${body(3)} ${body(4)}`);
    // A short document keeps its first and last lines: too few pages to tell a running head.
    expect(runningLines(pages.slice(0, 4)).size).toBe(0);
  });
});
