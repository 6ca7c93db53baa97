import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText, estimateTokens } from '../../../src/core/chunk';

const doc = (text: string) => ({ docId: 'd1', title: 'Doc', text });
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const byWords = (s: string) => words(s);

describe('chunkText', () => {
  it('keeps title, index, id and exact character offsets', () => {
    const text = 'Bees dance. They tell direction.\n\nTides rise twice a day. The moon pulls.';
    const ps = chunkText(doc(text), { targetTokens: 6, overlapTokens: 0, countTokens: byWords });
    expect(ps.length).toBeGreaterThan(1);
    ps.forEach((p, i) => {
      expect(p.index).toBe(i);
      expect(p.id).toBe(`d1#${i}`);
      expect(p.title).toBe('Doc');
      expect(text.slice(p.start, p.end)).toBe(p.text);
    });
  });

  it('never splits a sentence that fits, and never exceeds the target', () => {
    const sentence = fc
      .array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'x'), { minLength: 0, maxLength: 7 })
      .map((ws) => 'The ' + ws.join(' ') + '.');
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 8, max: 40 }),
        fc.integer({ min: 0, max: 7 }),
        (sentences, target, overlap) => {
          const text = sentences.join(' ');
          const ps = chunkText(doc(text), { targetTokens: target, overlapTokens: overlap, countTokens: byWords });
          for (const p of ps) expect(words(p.text)).toBeLessThanOrEqual(target);
          let start = 0;
          for (const s of sentences) {
            const end = start + s.length;
            expect(ps.some((p) => (p.start ?? -1) <= start && (p.end ?? -1) >= end)).toBe(true);
            start = end + 1;
          }
          for (let i = 1; i < ps.length; i++) expect(ps[i]!.start!).toBeGreaterThan(ps[i - 1]!.start!);
        },
      ),
    );
  });

  it('repeats trailing sentences of a passage at the start of the next as overlap', () => {
    const text = 'One two three. Four five six. Seven eight nine. Ten eleven twelve. Thirteen fourteen fifteen.';
    const ps = chunkText(doc(text), { targetTokens: 9, overlapTokens: 3, countTokens: byWords });
    expect(ps.map((p) => p.text)).toEqual([
      'One two three. Four five six. Seven eight nine.',
      'Seven eight nine. Ten eleven twelve. Thirteen fourteen fifteen.',
    ]);
  });

  it('splits a single over-long sentence on words, and an over-long word by characters', () => {
    const long = Array.from({ length: 25 }, (_, i) => `w${i}`).join(' ') + '.';
    const ps = chunkText(doc(long), { targetTokens: 10, overlapTokens: 0, countTokens: byWords });
    expect(ps.length).toBe(3);
    expect(ps.map((p) => p.text).join(' ')).toBe(long);
    const blob = 'x'.repeat(1000);
    const bs = chunkText(doc(blob), { targetTokens: 50, overlapTokens: 0 });
    for (const p of bs) expect(estimateTokens(p.text)).toBeLessThanOrEqual(50);
    expect(bs.map((p) => p.text).join('')).toBe(blob);
  });

  it('treats Markdown headings and paragraphs as boundaries and drops empty text', () => {
    expect(chunkText(doc('  \n\n  '))).toEqual([]);
    const ps = chunkText(doc('# Title\n\nFirst line here.\n## Next\nMore.'), {
      targetTokens: 3,
      overlapTokens: 0,
      countTokens: byWords,
    });
    expect(ps.map((p) => p.text)).toEqual(['# Title', 'First line here.', '## Next\nMore.']);
  });

  it('keeps sentences whole in texts far longer than one segmentation window, with or without line breaks', () => {
    const sentences = Array.from(
      { length: 3000 },
      (_, i) => `Sentence number ${i} talks about ${['bees', 'tides', 'bread'][i % 3]} at some length.`,
    );
    for (const sep of [' ', '\n']) {
      const text = sentences.join(sep);
      expect(text.length).toBeGreaterThan(100_000);
      const ps = chunkText(doc(text), { targetTokens: 60, overlapTokens: 0 });
      const joined = ps.map((p) => p.text).join(sep);
      expect(joined).toBe(text);
      for (const p of ps) expect(p.text).toMatch(/^Sentence number \d+ .*at some length\.$/s);
    }
  });

  it('rejects nonsensical sizes', () => {
    expect(() => chunkText(doc('a.'), { targetTokens: 0 })).toThrow(/target/);
    expect(() => chunkText(doc('a.'), { targetTokens: 10, overlapTokens: 10 })).toThrow(/overlap/);
  });
});
