// The paper's rule for which critique groups follow which, pinned on the one reader both engines
// use (readNativeSegment), apart from any driver. Self-RAG §3.2.2, the generator's training data:
// ISREL is appended after a retrieved passage; "if a passage is relevant", ISSUP after the
// segment; "at the end of the output", ISUSE once. So: relevance is expected only with a passage,
// support only with a passage the model did not call [Irrelevant], utility only in a segment that
// no next retrieval decision follows. The engines' paths through it: ./native-read.test.ts.
import { describe, expect, it } from 'vitest';
import { ISREL, ISSUP, ISUSE, RETRIEVE } from '../../../../src/core/reflection-tokens';
import { type NativeToken, readNativeSegment } from '../../../../src/generator/shared/native-read';

const word = (text: string): NativeToken => ({ text, logprob: Math.log(0.9), alternatives: {} });
/** A written reflection token whose group the engine reported with these probabilities. */
const refl = (reflection: string, p: Record<string, number>): NativeToken => ({
  text: reflection,
  logprob: Math.log(p[reflection]!),
  reflection,
  alternatives: Object.fromEntries(Object.entries(p).map(([k, q]) => [k, Math.log(q)])),
});
const relevant = refl(ISREL.relevant, { [ISREL.relevant]: 0.8, [ISREL.irrelevant]: 0.2 });
const irrelevant = refl(ISREL.irrelevant, { [ISREL.irrelevant]: 0.6, [ISREL.relevant]: 0.4 });
const full = refl(ISSUP.full, { [ISSUP.full]: 0.5, [ISSUP.partial]: 0.3, [ISSUP.none]: 0.2 });
const use5 = refl(ISUSE[4], { [ISUSE[4]]: 0.7, [ISUSE[3]]: 0.3 });
const decision = refl(RETRIEVE.retrieval, { [RETRIEVE.retrieval]: 0.6, [RETRIEVE.noRetrieval]: 0.4 });
const text = [word('Lyon'), word(' is'), word(' in'), word(' France.')];

const read = (tokens: NativeToken[], hasPassage: boolean) =>
  readNativeSegment({ text: tokens.map((t) => t.text).join(''), tokens, finish: 'stop' }, hasPassage);
const missing = (problems: string[]) =>
  problems.map((p) => /^missing (\w+) token$/.exec(p)?.[1]).filter((g): g is string => !!g);

describe("the paper's rule: which critique groups a native segment must carry", () => {
  // Each row writes only what it names before its text; the groups the rule expects and the model
  // did not write are the ones reported missing.
  const rows: { name: string; passage: boolean; before: NativeToken[]; middle: boolean; expected: string[] }[] = [
    {
      name: 'passage, [Relevant], last',
      passage: true,
      before: [relevant],
      middle: false,
      expected: ['support', 'utility'],
    },
    { name: 'passage, [Relevant], middle', passage: true, before: [relevant], middle: true, expected: ['support'] },
    { name: 'passage, [Irrelevant], last', passage: true, before: [irrelevant], middle: false, expected: ['utility'] },
    { name: 'passage, [Irrelevant], middle', passage: true, before: [irrelevant], middle: true, expected: [] },
    {
      name: 'passage, no relevance written, last',
      passage: true,
      before: [],
      middle: false,
      expected: ['relevance', 'support', 'utility'],
    },
    { name: 'no passage, last', passage: false, before: [], middle: false, expected: ['utility'] },
    { name: 'no passage, middle', passage: false, before: [], middle: true, expected: [] },
  ];
  for (const row of rows) {
    it(`${row.name}: missing ${row.expected.join(', ') || 'nothing'}`, () => {
      const r = read([...row.before, ...text, ...(row.middle ? [decision] : [])], row.passage);
      expect(missing(r.problems)).toEqual(row.expected);
      expect(r.done).toBe(!row.middle);
    });
  }

  it('reads each group where the order puts it: relevance, the text, support, utility, then the decision', () => {
    const last = read([relevant, ...text, full, use5], true);
    expect(last.problems).toEqual([]);
    expect(last.rel).toEqual([expect.closeTo(0.8, 12), expect.closeTo(0.2, 12)]);
    expect(last.sup).toEqual([expect.closeTo(0.5, 12), expect.closeTo(0.3, 12), expect.closeTo(0.2, 12)]);
    expect(last.use).toEqual([0, 0, 0, expect.closeTo(0.3, 12), expect.closeTo(0.7, 12)]);
    expect(last.text).toBe('Lyon is in France.');
    expect(last.tokenCount).toBe(4);
    expect(last.next).toBeUndefined();

    const middle = read([relevant, ...text, full, decision], true);
    expect(middle.problems).toEqual([]);
    expect(middle.use).toBeUndefined();
    expect(middle.next).toEqual([expect.closeTo(0.6, 12), expect.closeTo(0.4, 12), 0]);
  });

  it('a group after the next decision belongs to the next segment and is not read here', () => {
    const r = read([relevant, ...text, full, decision, relevant, use5], true);
    expect(r.use).toBeUndefined();
    expect(r.problems).toEqual([]);
    expect(r.done).toBe(false);
  });

  it('a group written where the rule does not expect it is still read, as the reference reads it wherever it appears', () => {
    const afterIrrelevant = read([irrelevant, ...text, full, use5], true);
    expect(afterIrrelevant.sup?.[0]).toBeCloseTo(0.5, 12);
    const utilityInMiddle = read([relevant, ...text, full, use5, decision], true);
    expect(utilityInMiddle.use?.[4]).toBeCloseTo(0.7, 12);
    expect(utilityInMiddle.done).toBe(false);
  });

  it('relevance and support judge a passage: without one they are not read, even when written', () => {
    const r = read([relevant, ...text, full, use5], false);
    expect(r.rel).toBeUndefined();
    expect(r.sup).toBeUndefined();
    expect(r.use?.[4]).toBeCloseTo(0.7, 12);
    expect(r.problems).toEqual([]);
  });
});
