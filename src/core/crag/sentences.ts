// Shared by knowledge strips (CRAG) and context relevance (RAGAS): both count sentences,
// so they must agree on what a sentence is.
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export interface SentenceSpan {
  text: string;
  /** Offsets of the trimmed sentence in the source text. */
  start: number;
  end: number;
}

/** Sentences of a text with their positions, trimmed, without empty ones, in order. */
export function sentenceSpans(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  for (const { segment, index } of segmenter.segment(text)) {
    const lead = segment.length - segment.trimStart().length;
    const s = segment.trim();
    if (s) out.push({ text: s, start: index + lead, end: index + lead + s.length });
  }
  return out;
}

/** Sentences of a text, trimmed, without empty ones, in order. */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((s) => s.text);
}

/** Whitespace- and case-insensitive form, for matching a quoted sentence to its source. */
export function normaliseSentence(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}
