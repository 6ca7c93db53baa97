// Shared by knowledge strips (CRAG) and context relevance (RAGAS): both count sentences,
// so they must agree on what a sentence is.
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Sentences of a text, trimmed, without empty ones, in order. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const s = segment.trim();
    if (s) out.push(s);
  }
  return out;
}

/** Whitespace- and case-insensitive form, for matching a quoted sentence to its source. */
export function normaliseSentence(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}
