// A PDF's text as a reader reads it: pdf.js gives text runs with their position, size and font;
// the lines they form are joined into paragraphs where the line breaks are only the page's
// wrapping, and kept apart where they mean something: a wider gap, a change of size (a heading)
// or of font (monospace code, whose lines stay lines), a list marker, a sentence that ends
// short of the margin. Lines larger than the body text become headings; lines that repeat at the
// top or bottom of many pages (running heads, page numbers) are left out. Pure: no pdf.js here.
import type { HeadingMark } from '../../core/source-location';

/** A line of a page, in PDF units (y grows upwards). */
export interface PdfLine {
  text: string;
  x: number;
  y: number;
  right: number;
  /** The tallest run's font size. */
  size: number;
  /** Every run with letters (or, without any, every run) is monospace. */
  mono: boolean;
}

interface Run {
  str: string;
  hasEOL?: boolean;
  transform?: number[];
  width?: number;
  height?: number;
  fontName?: string;
}

/** Lines of one page from pdf.js's `getTextContent()` items and styles. */
export function pageLines(items: unknown[], styles: Record<string, { fontFamily?: string }> = {}): PdfLine[] {
  const lines: PdfLine[] = [];
  let cur: { runs: Run[] } = { runs: [] };
  const finish = () => {
    const line = toLine(cur.runs, styles);
    if (line) lines.push(line);
    cur = { runs: [] };
  };
  for (const item of items) {
    if (!item || typeof item !== 'object' || !('str' in item)) continue;
    const run = item as Run;
    cur.runs.push(run);
    if (run.hasEOL) finish();
  }
  finish();
  return lines;
}

function toLine(runs: Run[], styles: Record<string, { fontFamily?: string }>): PdfLine | null {
  const text = runs
    .map((r) => r.str)
    .join('')
    .replace(/[ \t]+/g, ' ')
    .trim();
  if (!text) return null;
  const inked = runs.filter((r) => /\S/.test(r.str));
  const first = inked[0]!;
  const last = inked[inked.length - 1]!;
  const x = first.transform?.[4] ?? 0;
  const lastX = last.transform?.[4] ?? 0;
  // Code is judged by its words' font; a line of punctuation alone ("}") by all of it.
  const worded = inked.filter((r) => /[\p{L}\p{N}]/u.test(r.str));
  const judged = worded.length ? worded : inked;
  return {
    text,
    x,
    y: first.transform?.[5] ?? 0,
    right: lastX + (last.width ?? 0),
    size: Math.max(0, ...inked.map((r) => r.height ?? 0)),
    mono: judged.every((r) => styles[r.fontName ?? '']?.fontFamily === 'monospace'),
  };
}

/** What is typical of the document's body text, from every page's lines. */
export interface BodyMetrics {
  /** The font size most characters are set in. */
  size: number;
  /** The usual distance between two lines of a paragraph. */
  spacing: number;
  /** The usual left and right edges of body lines. */
  left: number;
  right: number;
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const quantile = (xs: number[], q: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

export function bodyMetrics(pages: PdfLine[][]): BodyMetrics {
  const bySize = new Map<number, number>();
  for (const l of pages.flat()) {
    const k = Math.round(l.size * 2) / 2;
    bySize.set(k, (bySize.get(k) ?? 0) + l.text.length);
  }
  const size = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const isBody = (l: PdfLine) => Math.abs(l.size - size) <= size * 0.12 && !l.mono;
  const gaps: number[] = [];
  for (const lines of pages)
    for (let i = 1; i < lines.length; i++) {
      const [a, b] = [lines[i - 1]!, lines[i]!];
      if (isBody(a) && isBody(b) && a.y - b.y > 0) gaps.push(a.y - b.y);
    }
  const body = pages.flat().filter(isBody);
  return {
    size,
    spacing: median(gaps),
    left: quantile(
      body.map((l) => l.x),
      0.1,
    ),
    right: quantile(
      body.map((l) => l.right),
      0.9,
    ),
  };
}

const LIST_MARKER = /^(?:[•◦▪●○■□‣⁃∙·*–—-]\s|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s)/u;
const SENTENCE_END = /[.!?:;]["'’”)\]]*$/u;

/** How two consecutive lines of a page meet: joined by a space, joined as written, a line break, or a new paragraph. */
export function joinOf(a: PdfLine, b: PdfLine, m: BodyMetrics): ' ' | '' | '\n' | '\n\n' {
  if (a.mono && b.mono) return '\n';
  if (a.mono !== b.mono) return '\n\n';
  if (Math.abs(a.size - b.size) > 0.12 * Math.max(a.size, b.size)) return '\n\n';
  const gap = a.y - b.y;
  if (m.spacing > 0 && (gap <= 0 || gap > m.spacing * 1.18)) return '\n\n';
  if (LIST_MARKER.test(b.text)) return '\n\n';
  const width = m.right - m.left;
  const full = width <= 0 || a.right >= m.right - 0.08 * width;
  if (SENTENCE_END.test(a.text) && !full) return '\n\n';
  // A word broken at the margin keeps its hyphen (a real compound, "well-known", looks the same).
  return /\p{L}-$/u.test(a.text) && /^\p{Ll}/u.test(b.text) ? '' : ' ';
}

/** A line set larger than the body, short and not code: a heading. */
function isHeading(l: PdfLine, m: BodyMetrics): boolean {
  return m.size > 0 && l.size > m.size * 1.15 && l.text.length <= 150 && !l.mono && /\p{L}/u.test(l.text);
}

/**
 * Lines at the top or bottom of pages that repeat (digits aside) on three pages or more of a
 * document of six or more: running heads and feet, page numbers.
 */
export function runningLines(pages: PdfLine[][]): Set<PdfLine> {
  const out = new Set<PdfLine>();
  if (pages.filter((p) => p.length).length < 6) return out;
  const key = (l: PdfLine) => l.text.replace(/\d+/g, '#').toLowerCase();
  const count = new Map<string, number>();
  const edges = pages.map((p) => [p[0], p[p.length - 1]].filter((l): l is PdfLine => !!l));
  for (const e of edges) for (const k of new Set(e.map(key))) count.set(k, (count.get(k) ?? 0) + 1);
  for (const e of edges) for (const l of e) if ((count.get(key(l)) ?? 0) >= 3) out.add(l);
  return out;
}

/** Heading sizes, largest first: a heading's level is its size's place in this list (1 to 6). */
export function headingSizes(pages: PdfLine[][], m: BodyMetrics): number[] {
  const sizes = new Set<number>();
  for (const l of pages.flat()) if (isHeading(l, m)) sizes.add(Math.round(l.size * 2) / 2);
  return [...sizes].sort((a, b) => b - a);
}

/** One page's text and the headings on it (offsets into that text). */
export function layoutPage(
  lines: PdfLine[],
  m: BodyMetrics,
  sizes: number[],
  skip: Set<PdfLine> = new Set(),
): { text: string; headings: HeadingMark[] } {
  let text = '';
  const headings: HeadingMark[] = [];
  let prev: PdfLine | null = null;
  let open: HeadingMark | null = null;
  for (const l of lines) {
    if (skip.has(l)) continue;
    const heading = isHeading(l, m);
    if (prev) text += joinOf(prev, l, m);
    // A heading set on two lines of the same size is one heading.
    if (heading && open && prev && isHeading(prev, m) && Math.abs(prev.size - l.size) < 0.5) {
      open.title += ` ${l.text}`;
    } else if (heading) {
      const level = Math.min(6, sizes.indexOf(Math.round(l.size * 2) / 2) + 1 || 6);
      open = { level, title: l.text, start: text.length };
      headings.push(open);
    } else open = null;
    text += l.text;
    prev = l;
  }
  return { text, headings };
}
