// The guard that keeps non-answers off the page: each reason with real outputs small models wrote.
import { describe, expect, it } from 'vitest';
import { copiedShare, nonAnswer } from '../../../../src/generator/shared/non-answer';
import { EXAMPLE, SYSTEM_ANSWER, USE_QUESTION } from '../../../../src/generator/prompts';

const check = (text: string, over: { previous?: string[]; passage?: string; raw?: string } = {}) =>
  nonAnswer({
    text,
    raw: over.raw ?? text,
    previous: over.previous ?? [],
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

  it("withholds the prompt's own words: its instructions, its worked example, its questions", () => {
    expect(check(SYSTEM_ANSWER)?.reason).toBe('form-text');
    expect(check(EXAMPLE.assistant)?.reason).toBe('form-text');
    expect(check(USE_QUESTION)?.reason).toBe('form-text');
  });

  it('withholds a repeat of what the answer already says', () => {
    const previous = ['Variables are immutable by default in Rust.'];
    expect(check('Variables are immutable by default in Rust.', { previous })?.reason).toBe('repeat');
    expect(check('You make them mutable by adding mut.', { previous })).toBeUndefined();
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
