import { describe, expect, it } from 'vitest';
import { faithfulness, parseVerdicts } from '../../../../src/core/ragas/faithfulness';
import { containsCritic, ctx, ruleWriter } from './fakes';

const models = { writer: 'W', nli: 'N' };
const Q = 'Who directed Oppenheimer and who stars in it?';
const contexts = [
  ctx('a', 'Oppenheimer is a 2023 film directed by Christopher Nolan.'),
  ctx('b', 'Cillian Murphy stars as Oppenheimer.'),
];

describe('RAGAS faithfulness', () => {
  it('with NLI: F = supported / total and lists the unsupported statements', async () => {
    const writer = ruleWriter([
      [
        'create one or more statements',
        '1. directed by Christopher Nolan\n- Cillian Murphy stars as Oppenheimer.\n3. Tom Cruise stars in it.',
      ],
    ]);
    const critic = containsCritic();
    const f = await faithfulness(Q, 'Nolan directed it; Murphy and Cruise star.', contexts, { writer, critic, models });
    expect(writer.prompts[0]).toContain(
      'Given a question and answer, create one or more statements from each sentence in the given answer.',
    );
    expect(writer.prompts[0]?.endsWith(`question: ${Q}\nanswer: Nolan directed it; Murphy and Cruise star.`)).toBe(
      true,
    );
    expect(f.statements.map((s) => s.statement)).toEqual([
      'directed by Christopher Nolan',
      'Cillian Murphy stars as Oppenheimer.',
      'Tom Cruise stars in it.',
    ]);
    expect(f.score).toBeCloseTo(2 / 3, 12);
    expect(f.unsupported).toEqual(['Tom Cruise stars in it.']);
    expect(critic.pairs).toBe(6); // 3 statements × 2 passages
    expect(f.statements[0]?.probability).toBeCloseTo(0.8, 12);
    expect(f.models).toEqual(['writer: W', 'nli: N']);
  });

  it('with the writer as verifier (the paper’s way): reads the final verdicts in order', async () => {
    const writer = ruleWriter([
      ['create one or more statements', 'Nolan directed it.\nCruise stars in it.'],
      [
        'Consider the given context and following statements',
        'statement 1: the context names Nolan as director. Verdict: Yes\nstatement 2: Murphy stars, not Cruise.\n\nFinal verdicts:\nstatement 1: Yes\nstatement 2: No',
      ],
    ]);
    const f = await faithfulness(Q, 'x', contexts, { writer, models: { writer: 'W' } });
    expect(writer.prompts[1]).toContain('statement: Nolan directed it. statement: Cruise stars in it.');
    expect(writer.prompts[1]).toContain(contexts[0]!.text);
    expect(f.score).toBe(0.5);
    expect(f.unsupported).toEqual(['Cruise stars in it.']);
    expect(f.models).toEqual(['writer: W']);
    expect(f.note).toBeUndefined();
  });

  it('counts a statement with no verdict as unsupported and says so', async () => {
    const writer = ruleWriter([
      ['create one or more statements', 'A.\nB.\nC.'],
      ['Consider the given context', 'statement 1: Yes\nstatement 3: yes'],
    ]);
    const f = await faithfulness(Q, 'x', contexts, { writer, models: { writer: 'W' } });
    expect(f.score).toBeCloseTo(2 / 3, 12);
    expect(f.unsupported).toEqual(['B.']);
    expect(f.note).toMatch(/1 verdict\(s\) missing/);
  });

  it('has no score for an empty answer and calls no model', async () => {
    const writer = ruleWriter([]);
    const f = await faithfulness(Q, '  ', contexts, { writer, models });
    expect(f.score).toBeNull();
    expect(writer.prompts).toEqual([]);
  });

  it('without context nothing is supported', async () => {
    const writer = ruleWriter([['create one or more statements', 'One claim.']]);
    const f = await faithfulness(Q, 'One claim.', [], { writer, critic: containsCritic(), models });
    expect(f.score).toBe(0);
    expect(f.unsupported).toEqual(['One claim.']);
  });

  it('parses verdicts regardless of case, and the last verdict per statement wins', () => {
    expect(parseVerdicts('Statement 2 - NO\nstatement 1: **yes**\nstatement 2: Yes\nstatement 9: yes', 2)).toEqual([
      true,
      true,
    ]);
  });
});
