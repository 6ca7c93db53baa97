import { describe, expect, it } from 'vitest';
import { contextRelevance } from '../../../../src/core/ragas/context-relevance';
import { ctx, ruleWriter } from './fakes';

const contexts = [
  ctx('a', 'Oppenheimer is a 2023 film. It was directed by Christopher Nolan. It runs three hours.'),
  ctx('b', 'Cillian Murphy stars as Oppenheimer. Emily Blunt plays Kitty.'),
];
const models = { writer: 'W' };

describe('RAGAS context relevance', () => {
  it('CR = extracted sentences / total context sentences', async () => {
    const writer = ruleWriter([
      [
        'Please extract relevant sentences',
        'context: It was directed by Christopher Nolan.\n- cillian   murphy stars as Oppenheimer.',
      ],
    ]);
    const cr = await contextRelevance('Who directed Oppenheimer and who stars?', contexts, { writer, models });
    expect(writer.prompts[0]).toContain('return the phrase "Insufficient Information"');
    expect(cr.totalSentences).toBe(5);
    expect(cr.extracted).toEqual(['It was directed by Christopher Nolan.', 'Cillian Murphy stars as Oppenheimer.']);
    expect(cr.score).toBeCloseTo(2 / 5, 12);
    expect(cr.models).toEqual(['writer: W']);
  });

  it('scores 0 on "Insufficient Information"', async () => {
    const writer = ruleWriter([['Please extract', 'Insufficient Information']]);
    expect((await contextRelevance('q', contexts, { writer, models })).score).toBe(0);
  });

  it('ignores invented and repeated sentences, so the score stays within [0, 1]', async () => {
    const writer = ruleWriter([
      ['Please extract', 'Emily Blunt plays Kitty. Emily Blunt plays Kitty. Nolan won an Oscar.'],
    ]);
    const cr = await contextRelevance('q', contexts, { writer, models });
    expect(cr.extracted).toEqual(['Emily Blunt plays Kitty.']);
    expect(cr.score).toBeCloseTo(1 / 5, 12);
    expect(cr.note).toMatch(/1 sentence\(s\) in the reply are not in the context/);
  });

  it('has no score without context', async () => {
    const writer = ruleWriter([]);
    const cr = await contextRelevance('q', [], { writer, models });
    expect(cr.score).toBeNull();
    expect(writer.prompts).toEqual([]);
  });
});
