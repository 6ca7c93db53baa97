// The guard that keeps non-answers off the page: each reason with real outputs small models wrote.
import { describe, expect, it } from 'vitest';
import { copiedShare, earlierAnswer, nonAnswer, REPEAT_SHARE } from '../../../../src/generator/shared/non-answer';
import { SYSTEM_ANSWER, USE_QUESTION } from '../../../../src/generator/prompts';

const check = (text: string, over: { previous?: string[]; earlier?: string[]; passage?: string; raw?: string } = {}) =>
  nonAnswer({
    text,
    raw: over.raw ?? text,
    previous: over.previous ?? [],
    ...(over.earlier ? { earlier: over.earlier } : {}),
    ...(over.passage ? { passage: over.passage } : {}),
  });

describe('nonAnswer', () => {
  it('passes an answer, including one that quotes its passage', () => {
    const passage =
      'The unwrap method is a shortcut method. If the Result value is the Err variant, unwrap will call the panic! macro for us.';
    expect(check('If the Result is an Err, unwrap calls the panic! macro.', { passage })).toBeUndefined();
    expect(
      check('If the Result value is the Err variant, unwrap will call the panic! macro for us.', { passage }),
    ).toBeUndefined();
  });

  it("withholds the prompt's own words: its instructions and its questions", () => {
    expect(check(SYSTEM_ANSWER)?.reason).toBe('form-text');
    expect(check(USE_QUESTION)?.reason).toBe('form-text');
  });

  it('withholds talk about the question and the prompt instead of an answer', () => {
    // Shown by the default for html-027 (Qwen2.5-Coder-0.5B): the question restated, the prompt's
    // "What comes next?" talked about; under the trigram threshold, since the question is the user's.
    const shown =
      'The question asks what does time print for an invalid backslash escape in its format string. The question asks what comes next.';
    expect(copiedShare(shown, [SYSTEM_ANSWER, USE_QUESTION, 'What comes next?'])).toBeLessThan(0.5);
    expect(check(shown)?.reason).toBe('form-text');
    expect(check('Use --test-threads=1. What comes next?')?.reason).toBe('form-text');
    // An answer that only restates the question before answering stays an answer.
    expect(
      check('What time prints for an invalid backslash escape in its format string is a question mark.'),
    ).toBeUndefined();
    // And a passage that says it itself may be quoted.
    const passage = 'Each chapter ends with a preview: what comes next in the book, and why.';
    expect(check('The chapter ends with what comes next in the book.', { passage })).toBeUndefined();
  });

  it('withholds a repeat of what the answer already says', () => {
    const previous = ['Variables are immutable by default in Rust.'];
    expect(check('Variables are immutable by default in Rust.', { previous })?.reason).toBe('repeat');
    expect(check('You make them mutable by adding mut.', { previous })).toBeUndefined();
  });

  it("withholds a repeat of an earlier turn's answer in the thread (issue 46), by the repeat's own test", () => {
    // What Qwen2.5-Coder-0.5B wrote for "And how do I update one?": the first turn's answer, word for word.
    const first =
      'Rust provides different ways of interpreting the raw string data that computers store so that each program can choose the interpretation it needs, no matter what human language the data is in.';
    const earlier = ['Use a HashMap: it stores each value under its key.', first];
    const passage = 'To update a value in a hash map, insert it again under the same key; the old value is replaced.';
    const copied = check(first, { earlier, passage });
    expect(copied?.reason).toBe('earlier-answer');
    expect(copied?.detail).toMatch(/earlier answer of this conversation/);
    // A near-copy: a word changed, a clause dropped.
    const near =
      'Rust provides several ways of interpreting the raw string data that computers store so that each program can choose the interpretation it needs.';
    expect(copiedShare(near, earlier)).toBeGreaterThanOrEqual(REPEAT_SHARE);
    expect(check(near, { earlier, passage })?.reason).toBe('earlier-answer');
    // A different answer is kept, even one that names the same map.
    expect(
      check('Insert the value again under the same key; the old value is replaced.', { earlier, passage }),
    ).toBeUndefined();
    expect(check('To update one, call insert with the same key, or use the entry API.', { earlier })).toBeUndefined();
    // The first question of a thread has no earlier answers.
    expect(check(first, { earlier: [] })).toBeUndefined();
    expect(check(first, { earlier: ['', '  '] })).toBeUndefined();
    expect(earlierAnswer(first, undefined)).toBeUndefined();
    expect(earlierAnswer(first, earlier)?.reason).toBe('earlier-answer');
  });

  it('withholds a refusal', () => {
    for (const t of [
      'The passage does not say how to cancel a print job.',
      "The passage doesn't mention channels.",
      'There is no information about lifetimes here.',
      'I cannot answer that from this passage.',
    ])
      expect(check(t)?.reason).toBe('declined');
    expect(check('The passage shows that unwrap panics.')).toBeUndefined();
  });

  it('withholds a reply that ended before a whole sentence', () => {
    expect(check('', { raw: 'The ? operator in the middle of the ? operator in the' })?.reason).toBe('cut-off');
    expect(check('', { raw: '' })?.detail).toMatch(/no answer/);
  });
});

describe('copiedShare', () => {
  it('is the share of word trigrams found in the source, or whole-phrase presence for one or two words', () => {
    expect(copiedShare('alpha beta gamma delta', ['alpha beta gamma'])).toBeCloseTo(0.5, 9);
    expect(copiedShare('cron syntax', ['the value uses cron syntax'])).toBe(1);
    expect(copiedShare('cron', ['chronology'])).toBe(0);
  });
});
