import { describe, expect, it } from 'vitest';
import { sentences } from '../../../../src/app/view/sentence';

describe('an error followed by its advice reads as two sentences', () => {
  it('ends a bare browser error with a full stop before the advice', () => {
    expect(sentences('Failed to fetch', 'Documents are still added and found by their words.')).toBe(
      'Failed to fetch. Documents are still added and found by their words.',
    );
  });

  it('keeps punctuation that is already there and drops empty parts', () => {
    expect(sentences('The model failed: out of memory!', undefined, '  ', 'Try a smaller model')).toBe(
      'The model failed: out of memory! Try a smaller model.',
    );
    expect(sentences('Could not open (SecurityError)', 'Reload.')).toBe('Could not open (SecurityError) Reload.');
  });

  it('gives nothing for nothing', () => {
    expect(sentences(undefined, '')).toBe('');
  });
});
