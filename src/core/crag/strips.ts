import { sentenceSpans } from './sentences';

/**
 * CRAG Appendix B.2: a passage of one or two sentences is a single strip; longer ones are
 * split into units of a few sentences. Strips are consecutive, cover the passage in order,
 * and are cut from the original text so line breaks (headings, lists) survive.
 */
export function decompose(text: string, sentencesPerStrip: number): string[] {
  const spans = sentenceSpans(text);
  const size = spans.length <= 2 ? Math.max(spans.length, 1) : sentencesPerStrip;
  const strips: string[] = [];
  for (let i = 0; i < spans.length; i += size) {
    const first = spans[i];
    const last = spans[Math.min(i + size, spans.length) - 1];
    if (first && last) strips.push(text.slice(first.start, last.end));
  }
  return strips;
}

/**
 * Concatenate kept strips in their original order, whatever order they were scored in.
 * A line break between strips keeps a strip that ends in a heading or list item from
 * running into the next one.
 */
export function recompose(strips: readonly { index: number; text: string }[]): string {
  return [...strips]
    .sort((a, b) => a.index - b.index)
    .map((s) => s.text)
    .join('\n');
}
