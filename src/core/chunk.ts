// Splits a document's extracted text into passages on sentence boundaries.
// Pure: runs the same in the browser, the worker and the Node indexer.
import type { Passage } from './ports';

export interface ChunkOptions {
  /** Target passage size in (estimated) tokens; a passage never exceeds it. */
  targetTokens?: number;
  /** Tokens of trailing whole sentences repeated at the start of the next passage. */
  overlapTokens?: number;
  /** Token counter; defaults to `estimateTokens`. */
  countTokens?: (text: string) => number;
  /** Locale for `Intl.Segmenter`; undefined uses the runtime default. */
  locale?: string;
}

export const DEFAULT_TARGET_TOKENS = 200;
export const DEFAULT_OVERLAP_TOKENS = 40;

/**
 * About four characters per token, the usual rule of thumb for English BPE
 * vocabularies. Embedders truncate at 256-512 tokens, so a 200-token target
 * leaves room for an underestimate.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.trim().length / 4);
}

interface Span {
  start: number;
  end: number;
  tokens: number;
}

/** Trimmed [start, end) of `text` within the bounds, or null when it is only whitespace. */
function trimSpan(text: string, start: number, end: number): [number, number] | null {
  while (start < end && /\s/.test(text[start] ?? '')) start++;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  return start < end ? [start, end] : null;
}

function sentenceSpans(text: string, locale: string | undefined): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  for (const { segment, index } of segmenter.segment(text)) {
    const span = trimSpan(text, index, index + segment.length);
    if (span) spans.push(span);
  }
  return spans;
}

/** Splits an over-long span at whitespace, and a single over-long word by halving. */
function splitLong(text: string, start: number, end: number, limit: number, count: (s: string) => number): Span[] {
  const tokens = count(text.slice(start, end));
  if (tokens <= limit) return [{ start, end, tokens }];
  const words: Array<[number, number]> = [];
  const re = /\S+/g;
  re.lastIndex = 0;
  const slice = text.slice(start, end);
  for (let m = re.exec(slice); m; m = re.exec(slice)) words.push([start + m.index, start + m.index + m[0].length]);
  if (words.length <= 1) {
    const mid = start + Math.floor((end - start) / 2);
    return [...splitLong(text, start, mid, limit, count), ...splitLong(text, mid, end, limit, count)];
  }
  const out: Span[] = [];
  let curStart = -1;
  let curEnd = -1;
  for (const [ws, we] of words) {
    if (curStart < 0) {
      curStart = ws;
      curEnd = we;
      continue;
    }
    if (count(text.slice(curStart, we)) <= limit) {
      curEnd = we;
    } else {
      out.push(...splitLong(text, curStart, curEnd, limit, count));
      curStart = ws;
      curEnd = we;
    }
  }
  if (curStart >= 0) out.push(...splitLong(text, curStart, curEnd, limit, count));
  return out;
}

/**
 * Packs whole sentences into passages of at most `targetTokens`, repeating up to
 * `overlapTokens` of trailing sentences at the start of the next one. A sentence
 * is split (at words) only when it alone exceeds the target.
 * Each passage's text is exactly `text.slice(start, end)`.
 */
export function chunkText(
  doc: { docId: string; title: string; text: string },
  opts: ChunkOptions = {},
): Passage[] {
  const target = opts.targetTokens ?? DEFAULT_TARGET_TOKENS;
  const overlap = opts.overlapTokens ?? DEFAULT_OVERLAP_TOKENS;
  const count = opts.countTokens ?? estimateTokens;
  if (!(target >= 1)) throw new Error(`chunk target must be at least 1 token, got ${target}`);
  if (!(overlap >= 0 && overlap < target)) throw new Error(`chunk overlap must be in [0, target), got ${overlap}`);

  const { text } = doc;
  const units: Span[] = [];
  for (const [s, e] of sentenceSpans(text, opts.locale)) units.push(...splitLong(text, s, e, target, count));

  const passages: Passage[] = [];
  const emit = (from: number, to: number): void => {
    const first = units[from];
    const last = units[to - 1];
    if (!first || !last) return;
    const index = passages.length;
    passages.push({
      id: `${doc.docId}#${index}`,
      docId: doc.docId,
      title: doc.title,
      text: text.slice(first.start, last.end),
      index,
      start: first.start,
      end: last.end,
    });
  };
  // Sizes are measured on the joined slice, so the separators between sentences count too.
  const sizeOf = (from: number, to: number): number =>
    count(text.slice(units[from]?.start ?? 0, units[to - 1]?.end ?? 0));

  let from = 0;
  while (from < units.length) {
    let to = from + 1;
    while (to < units.length && sizeOf(from, to + 1) <= target) to++;
    emit(from, to);
    if (to >= units.length) break;
    // Step back over trailing sentences for the overlap, but always move forward
    // and leave room for at least the next sentence.
    let next = to;
    while (next - 1 > from && sizeOf(next - 1, to) <= overlap && sizeOf(next - 1, to + 1) <= target) next--;
    from = next;
  }
  return passages;
}
