// RAGAS conformance: the three metrics' formulas (paper §3) and the library's noncommittal rule
// for answer relevance, against reference.ts on random model outputs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerRelevance } from '../../../src/core/ragas/answer-relevance';
import { contextRelevance } from '../../../src/core/ragas/context-relevance';
import { faithfulness } from '../../../src/core/ragas/faithfulness';
import type { Embedder, Writer } from '../../../src/core/ports';
import { refAnswerRelevance, refContextRelevance, refFaithfulness } from './reference';

const writerOf = (reply: (prompt: string) => string): Writer => ({ write: async (p) => reply(p) });
const vector = fc
  .array(fc.integer({ min: -8, max: 8 }), { minLength: 4, maxLength: 4 })
  .filter((v) => v.some((x) => x !== 0));

describe('RAGAS answer relevance agrees with the library', () => {
  it('mean cosine of the generated questions to the question, times 0 when the answer is judged noncommittal', async () => {
    await fc.assert(
      fc.asyncProperty(
        vector,
        fc.array(vector, { minLength: 1, maxLength: 5 }),
        fc.constantFrom<0 | 1 | null>(0, 1, null),
        async (q, gens, flag) => {
          const n = gens.length;
          const questions = gens.map((_, i) => `Generated question ${i}?`);
          const table = new Map<string, number[]>([
            ['The question?', q],
            ...questions.map((t, i): [string, number[]] => [t, gens[i] ?? []]),
          ]);
          const embedder: Embedder = {
            embed: async (texts) => texts.map((t) => Float32Array.from(table.get(t) ?? [])),
          };
          const reply = [...questions, ...(flag === null ? [] : [`noncommittal: ${flag}`])].join('\n');
          const ar = await answerRelevance(
            'The question?',
            'Some answer.',
            { writer: writerOf(() => reply), embedder, models: { writer: 'W' } },
            n,
          );
          // One generation gives one verdict; no verdict counts as committal.
          expect(ar.score).toBeCloseTo(refAnswerRelevance(q, gens, flag === null ? [] : [flag === 1]), 12);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('RAGAS faithfulness and context relevance agree with the paper', () => {
  it('F = |V| / |S| over the statements the writer extracted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), async (verdicts) => {
        const statements = verdicts.map((_, i) => `Statement number ${i} holds.`);
        const writer = writerOf((p) =>
          p.startsWith('Given a question and answer')
            ? statements.join('\n')
            : verdicts.map((v, i) => `statement ${i + 1}: ${v ? 'Yes' : 'No'}`).join('\n'),
        );
        const f = await faithfulness(
          'q',
          'An answer.',
          [{ id: 'c', docId: 'c', title: 'c', text: 'Context.', index: 0 }],
          { writer, models: { writer: 'W' } },
        );
        expect(f.score).toBe(refFaithfulness(verdicts));
      }),
      { numRuns: 200 },
    );
  });

  it('CR = extracted sentences / sentences in the context; repeats and invented sentences do not count', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.boolean(),
        async (sizes, picks, invent) => {
          const contexts = sizes.map((n, ci) => ({
            id: `c${ci}`,
            docId: `c${ci}`,
            title: `c${ci}`,
            text: Array.from({ length: n }, (_, si) => `Context ${ci} line ${si} is here.`).join(' '),
            index: 0,
          }));
          const all = contexts.flatMap((c) => c.text.split(/(?<=\.) /));
          const chosen = picks.map((k) => all[k % all.length] ?? '');
          const reply = [
            ...chosen.map((s, i) => (i % 2 ? s.toUpperCase() : s)),
            ...(invent ? ['A sentence that is not there.'] : []),
          ].join('\n');
          const cr = await contextRelevance('q', contexts, { writer: writerOf(() => reply), models: { writer: 'W' } });
          expect(cr.score).toBe(refContextRelevance(new Set(chosen).size, all.length));
        },
      ),
      { numRuns: 200 },
    );
  });
});
