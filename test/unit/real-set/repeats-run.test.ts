import { describe, expect, it } from 'vitest';
import { repeatsRun } from '../../real/repeats';

describe("the follow-ups bench's copy measure", () => {
  const first = 'Use a HashMap: call insert with the key and the value, then get with the key to read it back.';

  it('finds eight words in a row of the earlier answer, whatever the case, quotes and spacing', () => {
    expect(repeatsRun('As before, CALL `insert` with the key and the value.  Then done.', first)).toBe(true);
  });

  it('does not count an answer that shares only a few words with the earlier one', () => {
    expect(repeatsRun('To update a value, call insert with the same key; the old value is replaced.', first)).toBe(
      false,
    );
    expect(repeatsRun('', first)).toBe(false);
  });
});
