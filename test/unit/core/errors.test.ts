import { describe, expect, it } from 'vitest';
import { errorMessage, isAbort } from '../../../src/core/errors';

describe('errorMessage', () => {
  it("reads an Error's message and stringifies anything else", () => {
    expect(errorMessage(new TypeError('bad input'))).toBe('bad input');
    expect(errorMessage('worker said no')).toBe('worker said no');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});

describe('isAbort', () => {
  it('knows an abort by its name, whatever carried it', () => {
    expect(isAbort(new DOMException('stopped', 'AbortError'))).toBe(true);
    expect(isAbort(Object.assign(new Error('stopped'), { name: 'AbortError' }))).toBe(true);
    // An abort that crossed a worker channel keeps only its fields.
    expect(isAbort({ name: 'AbortError', message: 'stopped' })).toBe(true);
  });

  it('is false for failures and for things that are not objects', () => {
    expect(isAbort(new Error('network'))).toBe(false);
    expect(isAbort(new DOMException('quota', 'QuotaExceededError'))).toBe(false);
    expect(isAbort('AbortError')).toBe(false);
    expect(isAbort(null)).toBe(false);
  });
});
