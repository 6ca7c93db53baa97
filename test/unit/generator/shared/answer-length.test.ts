// Where a prompted answer stops, and what of a stopped or cut-off reply is kept.
import { describe, expect, it } from 'vitest';
import { answerText, enoughSentences } from '../../../../src/generator/shared/answer-length';

describe('enoughSentences', () => {
  it('is false until a third sentence has begun', () => {
    expect(enoughSentences('Rc<T> counts references.')).toBe(false);
    expect(enoughSentences('Rc<T> counts references. It is for one thread.')).toBe(false);
    expect(enoughSentences('Rc<T> counts references. It is for one thread. Use')).toBe(true);
  });

  it('does not end a sentence inside a version number, a path or an abbreviation', () => {
    expect(enoughSentences('Rust 1.0 shipped in 2015. Use std::sync::mpsc for channels, e.g. to send')).toBe(false);
  });

  it('waits for a fenced code block to close', () => {
    const open = 'Read it with fs. Then print it.\n```rust\nlet s = fs::read_to_string(p)?; println!("{s}"); x.y';
    expect(enoughSentences(open)).toBe(false);
    expect(enoughSentences(`${open}\n\`\`\`\nMore follows. And more.`)).toBe(true);
  });
});

describe('answerText', () => {
  it('keeps at most two sentences of a reply that was stopped', () => {
    expect(answerText('One thing. Two things. Thr', false)).toBe('One thing. Two things.');
  });

  it('drops the unfinished sentence of a reply cut off at the token limit, and keeps nothing when none is whole', () => {
    expect(answerText('Use push to add. It appends at the end of the', false)).toBe('Use push to add.');
    expect(answerText('The ? operator in the middle of the ? operator in the middle of', false)).toBe('');
  });

  it('keeps the last sentence of a reply the model ended itself, full stop or not', () => {
    expect(answerText('It returns the error early', true)).toBe('It returns the error early');
    expect(answerText('  Use `move`.  ', true)).toBe('Use `move`.');
  });
});
