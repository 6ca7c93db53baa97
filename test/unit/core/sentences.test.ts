import { describe, expect, it } from 'vitest';
import { decompose } from '../../../src/core/crag/strips';
import { sentenceSpans, splitSentences } from '../../../src/core/sentences';
import { sentenceRanges, supportingSentence } from '../../../src/app/view/highlight';

// A paragraph of the Rust book as its HTML gives it: lines broken mid-sentence.
const RUST = `To switch to unsafe Rust, use the unsafe keyword and then start a new block that holds the unsafe code. You can take five actions in unsafe Rust that you
can't in safe Rust, which we call unsafe superpowers. Those superpowers include the ability to:

Dereference a raw pointer.`;

describe('the one sentence splitter', () => {
  it('ends a sentence at its punctuation, not at a line break inside a paragraph', () => {
    expect(splitSentences(RUST)).toEqual([
      'To switch to unsafe Rust, use the unsafe keyword and then start a new block that holds the unsafe code.',
      "You can take five actions in unsafe Rust that you\ncan't in safe Rust, which we call unsafe superpowers.",
      'Those superpowers include the ability to:',
      'Dereference a raw pointer.',
    ]);
  });

  it('keeps offsets into the original text, line ends of PDFs (\\r\\n) included', () => {
    const pdf = 'The daemon reads its\r\nconfiguration at start. It then\r\nforks.';
    for (const s of sentenceSpans(pdf)) expect(pdf.slice(s.start, s.end)).toBe(s.text);
    expect(splitSentences(pdf)).toEqual(['The daemon reads its\r\nconfiguration at start.', 'It then\r\nforks.']);
  });

  it('is the highlight’s and the strips’ splitter alike', () => {
    const r = supportingSentence(RUST, 'Unsafe Rust gives five actions called unsafe superpowers.')!;
    expect(RUST.slice(r.start, r.end)).toBe(
      "You can take five actions in unsafe Rust that you\ncan't in safe Rust, which we call unsafe superpowers.",
    );
    expect(sentenceRanges(RUST).map((x) => RUST.slice(x.start, x.end))).toEqual(splitSentences(RUST));
    // CRAG strips of one sentence each are the same sentences.
    expect(decompose(RUST, 1)).toEqual(splitSentences(RUST));
  });

  it('splits a long text in windows without losing or cutting a sentence', () => {
    const sentence = (i: number) => `Sentence number ${i} runs over\na line break and ends here.`;
    const text = Array.from({ length: 600 }, (_, i) => sentence(i)).join(' ');
    const spans = sentenceSpans(text);
    expect(spans.length).toBe(600);
    spans.forEach((s, i) => expect(s.text).toBe(sentence(i)));
  });
});
