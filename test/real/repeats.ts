// Whether an answer copies an earlier one, as a reader would notice it: used by the real tier's
// thread test (answers.test.ts) and the follow-ups bench (bench/follow-ups.bench.ts).
import { normalise } from './question-set';

/**
 * Eight or more words in a row of `earlier` in `text`: a copy a reader would notice. Measured apart
 * from the guard's own test (generator/shared/non-answer.ts), so the figure can disagree with it.
 */
export function repeatsRun(text: string, earlier: string, run = 8): boolean {
  const words = (s: string) => normalise(s).match(/[\p{L}\p{N}_]+/gu) ?? [];
  const e = ` ${words(earlier).join(' ')} `;
  const t = words(text);
  for (let i = 0; i + run <= t.length; i++) if (e.includes(` ${t.slice(i, i + run).join(' ')} `)) return true;
  return false;
}
