import { describe, expect, it } from 'vitest';
import { isQuotaError, storageFullMessage } from '../../../src/library/quota';

describe('the one full-storage detector', () => {
  it('recognises quota errors however they arrive, and nothing else', () => {
    expect(isQuotaError(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError('QuotaExceededError: Failed to execute put on Cache')).toBe(true); // web-llm's errors are strings
    expect(isQuotaError(new Error(`could not add a.txt: ${storageFullMessage()}`))).toBe(true); // the library's own refusal
    expect(isQuotaError(new Error('Network error: failed to fetch'))).toBe(false);
    expect(isQuotaError(new Error('the file is empty'))).toBe(false);
    expect(isQuotaError(undefined)).toBe(false);
  });
});
