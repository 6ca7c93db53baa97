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

// V8's segment iterator copies the whole input for every segment it returns, so
// segmenting a long text at once is quadratic (720 KB took 25 s and 4 GB in
// Node 20). Windows of this many characters keep it linear.
const WINDOW = 8192;

function sentenceSpans(text: string, locale: string | undefined): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  let pos = 0;
  while (pos < text.length) {
    let end = Math.min(text.length, pos + WINDOW);
    let safe = end === text.length;
    if (!safe) {
      // A line break always ends a sentence (UAX #29 SB4): cut after one when the window has it.
      const nl = text.lastIndexOf('\n', end - 1);
      if (nl >= pos) {
        end = nl + 1;
        safe = true;
      } else {
        const space = text.slice(pos, end).search(/\s\S*$/);
        if (space > 0) end = pos + space + 1;
      }
    }
    const segs = [...segmenter.segment(text.slice(pos, end))];
    // Without a safe cut, the last sentence may continue past the window: segment it again from its start.
    const keep = safe || segs.length < 2 ? segs.length : segs.length - 1;
    for (let i = 0; i < keep; i++) {
      const seg = segs[i]!;
      const span = trimSpan(text, pos + seg.index, pos + seg.index + seg.segment.length);
      if (span) spans.push(span);
    }
    pos = keep === segs.length ? end : pos + segs[keep]!.index;
  }
  return spans;
}

/**
 * Splits an over-long span at whitespace into the fewest pieces within the limit
 * (binary search per piece, so a long text costs O(n log n) counts of characters),
 * and a single over-long word by halving.
 */
function splitLong(text: string, start: number, end: number, limit: number, count: (s: string) => number): Span[] {
  const tokens = count(text.slice(start, end));
  if (tokens <= limit) return [{ start, end, tokens }];
  const words: Array<[number, number]> = [];
  const re = /\S+/g;
  const slice = text.slice(start, end);
  for (let m = re.exec(slice); m; m = re.exec(slice)) words.push([start + m.index, start + m.index + m[0].length]);
  if (words.length <= 1) {
    const mid = start + Math.floor((end - start) / 2);
    return [...splitLong(text, start, mid, limit, count), ...splitLong(text, mid, end, limit, count)];
  }
  const out: Span[] = [];
  for (let i = 0; i < words.length; ) {
    const from = words[i]![0];
    const fits = (j: number) => count(text.slice(from, words[j]![1])) <= limit;
    if (!fits(i)) {
      out.push(...splitLong(text, from, words[i]![1], limit, count));
      i++;
      continue;
    }
    let lo = i;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (fits(mid)) lo = mid;
      else hi = mid - 1;
    }
    const to = words[lo]![1];
    out.push({ start: from, end: to, tokens: count(text.slice(from, to)) });
    i = lo + 1;
  }
  return out;
}

/**
 * Packs whole sentences into passages of at most `targetTokens`, repeating up to
 * `overlapTokens` of trailing sentences at the start of the next one. A sentence
 * is split (at words) only when it alone exceeds the target.
 * Each passage's text is exactly `text.slice(start, end)`.
 */
export function chunkText(doc: { docId: string; title: string; text: string }, opts: ChunkOptions = {}): Passage[] {
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
