import { splitSentences } from './sentences';

/**
 * CRAG Appendix B.2: a passage of one or two sentences is a single strip; longer ones are
 * split into units of a few sentences. Strips are consecutive and cover the passage in order.
 */
export function decompose(text: string, sentencesPerStrip: number): string[] {
  const sentences = splitSentences(text);
  if (sentences.length <= 2) return sentences.length ? [sentences.join(' ')] : [];
  const strips: string[] = [];
  for (let i = 0; i < sentences.length; i += sentencesPerStrip) {
    strips.push(sentences.slice(i, i + sentencesPerStrip).join(' '));
  }
  return strips;
}

/** Concatenate kept strips in their original order, whatever order they were scored in. */
export function recompose(strips: readonly { index: number; text: string }[]): string {
  return [...strips].sort((a, b) => a.index - b.index).map((s) => s.text).join(' ');
}
