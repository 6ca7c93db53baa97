// Which sentence of a passage supports a segment, as character ranges. The UI
// renders the ranges as text slices, so passage text never becomes markup.
import { sentenceSpans } from '../../core/sentences';

export interface TextRange {
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const STOP = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were which with'.split(' '),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => !STOP.has(w));
}

/** Sentence boundaries as ranges (trimmed of surrounding space), by the answer path's one splitter. */
export function sentenceRanges(text: string): TextRange[] {
  return sentenceSpans(text).map(({ start, end }) => ({ start, end }));
}

/** The passage sentence sharing the most content words with the segment, or none when nothing overlaps. */
export function supportingSentence(passage: string, segment: string): TextRange | null {
  const seg = new Set(words(segment));
  let best: TextRange | null = null;
  let bestScore = 0;
  for (const r of sentenceRanges(passage)) {
    const ws = words(passage.slice(r.start, r.end));
    if (ws.length === 0) continue;
    const hits = new Set(ws.filter((w) => seg.has(w))).size;
    const score = hits / Math.sqrt(ws.length);
    if (hits > 0 && score > bestScore) {
      best = r;
      bestScore = score;
    }
  }
  return best;
}

/** Splits text into plain and highlighted pieces for rendering. */
export function splitByRange(text: string, r: TextRange | null): { text: string; mark: boolean }[] {
  if (!r || r.start >= r.end) return [{ text, mark: false }];
  return [
    { text: text.slice(0, r.start), mark: false },
    { text: text.slice(r.start, r.end), mark: true },
    { text: text.slice(r.end), mark: false },
  ].filter((p) => p.text.length > 0);
}
