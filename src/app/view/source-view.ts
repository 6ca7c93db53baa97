// What the source viewer shows, decided without the DOM: which page the supporting sentence
// stands on, the stretch of text around it, which text-layer items and which recognised lines
// to mark. The components only draw what these return.
import type { Passage } from '../../core/ports';
import { pageAt, type DocLayout, type OcrLine } from '../../core/source-location';
import { supportingSentence, type TextRange } from './highlight';

/** The supporting sentence as a range of the document's text (or of the passage's, when its offsets are unknown). */
export function sentenceInDocument(passage: Passage, segment: string): TextRange {
  const base = passage.start ?? 0;
  const r = supportingSentence(passage.text, segment);
  return r ? { start: base + r.start, end: base + r.end } : { start: base, end: base + passage.text.length };
}

/** A page of text to show: the document's own page, or a stretch cut at paragraph breaks where it has none. */
export interface TextPage {
  /** The document's page number, or the stretch's 1-based position. */
  number: number;
  start: number;
  end: number;
}

/** About how many characters a stretch holds when the document has no pages. */
export const STRETCH_CHARS = 3000;

/** The document cut into the pages the viewer steps through. */
export function textPages(text: string, layout: DocLayout | undefined): TextPage[] {
  const pages = layout?.pages;
  if (pages?.length)
    return pages.map((p, i) => ({ number: p.page, start: p.start, end: pages[i + 1]?.start ?? text.length }));
  const out: TextPage[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + STRETCH_CHARS);
    if (end < text.length) {
      // Cut after a blank line, else a line break, else a space, in the second half of the stretch.
      const half = start + STRETCH_CHARS / 2;
      const cut = (['\n\n', '\n', ' '] as const)
        .map((sep) => ({ at: text.lastIndexOf(sep, end - sep.length), len: sep.length }))
        .find((c) => c.at > half);
      if (cut) end = cut.at + cut.len;
    }
    out.push({ number: out.length + 1, start, end });
    start = end;
  }
  return out;
}

/** Index in `pages` of the page holding `offset`. */
export function pageIndexAt(pages: readonly TextPage[], offset: number): number {
  const i = pages.findIndex((p) => offset >= p.start && offset < p.end);
  return i >= 0 ? i : Math.max(0, pages.length - 1);
}

/** The PDF page the sentence starts on, from the layout; else the passage's own first page; else 1. */
export function pdfPageOf(passage: Passage, layout: DocLayout | undefined, sentence: TextRange): number {
  if (layout?.pages?.length) return pageAt(layout.pages, sentence.start) ?? 1;
  return passage.source?.page ?? 1;
}

/** Text pieces of a page, the sentence marked and the rest of the passage set apart. */
export function pagePieces(
  text: string,
  page: TextPage,
  passage: TextRange,
  sentence: TextRange,
): Array<{ text: string; kind: 'plain' | 'passage' | 'sentence' }> {
  const cuts = [page.start, page.end, passage.start, passage.end, sentence.start, sentence.end].map((n) =>
    Math.min(page.end, Math.max(page.start, n)),
  );
  const points = [...new Set(cuts)].sort((a, b) => a - b);
  const out: Array<{ text: string; kind: 'plain' | 'passage' | 'sentence' }> = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i]!, points[i + 1]!];
    const kind =
      a >= sentence.start && b <= sentence.end
        ? 'sentence'
        : a >= passage.start && b <= passage.end
          ? 'passage'
          : 'plain';
    const last = out[out.length - 1];
    if (last && last.kind === kind) last.text += text.slice(a, b);
    else out.push({ text: text.slice(a, b), kind });
  }
  return out;
}

const squeeze = (s: string) => s.toLowerCase().replace(/[\s\u00ad-]+/g, '');

/**
 * The text-layer items (pdf.js's strings, in order) that hold the sentence: the sentence is
 * looked up with spaces and hyphens squeezed out, since the page's items break lines and
 * words where the extracted text does not; when it is not found whole, its first and last
 * forty characters are tried, so a sentence running on to the next page still marks its part.
 */
export function itemsHolding(items: readonly string[], sentence: string): number[] {
  return [...new Set(itemRanges(items, sentence).map((r) => r.item))];
}

/** Where the sentence stands in each item that holds it: the characters to mark, not the whole item. */
export interface ItemRange {
  item: number;
  start: number;
  end: number;
}

/** The sentence's characters in the text-layer items (found as itemsHolding finds it), one range per item, in order. */
export function itemRanges(items: readonly string[], sentence: string): ItemRange[] {
  const { joined, owner, at } = joinSqueezed(items);
  const target = squeeze(sentence);
  if (!target) return [];
  const spans: Array<[number, number]> = [];
  const whole = joined.indexOf(target);
  if (whole >= 0) spans.push([whole, whole + target.length]);
  else {
    const head = target.slice(0, 40);
    const tail = target.slice(-40);
    const h = joined.indexOf(head);
    if (h >= 0) spans.push([h, Math.min(joined.length, h + target.length)]);
    const t = joined.lastIndexOf(tail);
    if (t >= 0) spans.push([Math.max(0, t + tail.length - target.length), t + tail.length]);
  }
  const ranges = new Map<number, ItemRange>();
  for (const [a, b] of spans)
    for (let k = a; k < b; k++) {
      const item = owner[k]!;
      const r = ranges.get(item);
      if (r) {
        r.start = Math.min(r.start, at[k]!);
        r.end = Math.max(r.end, at[k]! + 1);
      } else ranges.set(item, { item, start: at[k]!, end: at[k]! + 1 });
    }
  return [...ranges.values()].sort((x, y) => x.item - y.item);
}

/**
 * The strings joined with spaces and hyphens squeezed out, which string each character came from
 * and where in it (squeezing drops characters only, one for one, so the offsets stay exact).
 */
function joinSqueezed(items: readonly string[]): { joined: string; owner: number[]; at: number[] } {
  const owner: number[] = [];
  const at: number[] = [];
  let joined = '';
  items.forEach((s, i) => {
    for (let k = 0; k < s.length; k++) {
      const q = squeeze(s[k]!);
      if (!q) continue;
      joined += q;
      for (let j = 0; j < q.length; j++) {
        owner.push(i);
        at.push(k);
      }
    }
  });
  return { joined, owner, at };
}

function ownersOf(owner: readonly number[], spans: readonly (readonly [number, number])[]): number[] {
  const hit = new Set<number>();
  for (const [a, b] of spans) for (let k = a; k < b; k++) hit.add(owner[k]!);
  return [...hit].sort((a, b) => a - b);
}

const WORDS = /[\p{L}\p{N}]+/gu;

/**
 * The recognised lines the sentence touches, to box on the scan: found whole in the lines' text (a
 * sentence that starts or ends mid-line keeps that line); where recognition differs from the
 * sentence's text, the lines most of whose words are in the sentence.
 */
export function linesHolding(lines: readonly OcrLine[], sentence: string): number[] {
  const { joined, owner } = joinSqueezed(lines.map((l) => l.text));
  const target = squeeze(sentence);
  const whole = target ? joined.indexOf(target) : -1;
  if (whole >= 0) return ownersOf(owner, [[whole, whole + target.length]]);
  const words = new Set(sentence.toLowerCase().match(WORDS) ?? []);
  const out: number[] = [];
  lines.forEach((l, i) => {
    const ws = l.text.toLowerCase().match(WORDS) ?? [];
    if (ws.length === 0) return;
    const hits = ws.filter((w) => words.has(w)).length;
    if (hits / ws.length >= 0.6) out.push(i);
  });
  return out;
}

/**
 * The viewer's words for where it is in a PDF: the number printed on the page where the PDF labels
 * its pages and the label differs from the page's place in the file ("Page 22 (25 of 36 in the
 * file)"), else "Page 25 of 36".
 */
export function pdfPageLabel(page: number, count: number, labels: readonly string[] | null): string {
  const printed = labels?.[page - 1]?.trim();
  if (!printed || printed === String(page)) return `Page ${page} of ${count}`;
  return `Page ${printed} (${page} of ${count} in the file)`;
}
