import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import type { ScoredPassage } from '../../../src/core/ports';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator, scriptKey } from '../../doubles/scripted-generator';
import { bestTexts, rankWith, rel, settings, sup, use } from './helpers';

const Q = 'When was the tower built?';
const p1: ScoredPassage = { ...passage('p1', 'The tower was built from 1887 to 1889.', 'Tower'), score: 0.9 };
const p2: ScoredPassage = { ...passage('p2', 'The tower is 330 metres tall.', 'Tower'), score: 0.8 };

/** A (from p1) ends the answer and scores best; B (from p2) goes on, and B ▸ B1 would score better still. */
function script(bestEnds: boolean) {
  return new ScriptedGenerator({
    retrieve: (req) =>
      req.previous.length === 0 ? { retrieval: 1, noRetrieval: 0 } : { retrieval: 0, noRetrieval: 1 },
    segments: {
      [scriptKey([], 'p1')]: { text: 'A', rel: rel(0.9), sup: sup(1, 0, 0), use: use(4), done: bestEnds },
      [scriptKey([], 'p2')]: { text: 'B', rel: rel(0.6), sup: sup(0.5, 0.5, 0), use: use(3) },
      [scriptKey(['A'], null)]: { text: 'A1', use: use(5), done: true },
      [scriptKey(['B'], null)]: { text: 'B1', use: use(5), done: true },
    },
  });
}
const retriever = () => new FakeRetriever(() => [p1, p2]);
const writtenAfterFirstStep = (g: ScriptedGenerator) => g.calls.filter((c) => c.kind === 'generateSegments').length - 1;

describe('stop at the first answer', () => {
  it('stops the search once the best path has ended the answer: the other beam is not written on', async () => {
    const g = script(true);
    const r = await decode(
      Q,
      { generator: g, retriever: retriever() },
      settings({ passagesPerStep: 2, maxDepth: 3, stopAtFirstAnswer: true }),
      rankWith(),
    );
    expect(writtenAfterFirstStep(g)).toBe(0);
    expect(bestTexts(r)).toEqual(['A']);
  });

  it("is off in the paper's search: the other beam is written on and compared", async () => {
    const g = script(true);
    const r = await decode(
      Q,
      { generator: g, retriever: retriever() },
      settings({ passagesPerStep: 2, maxDepth: 3 }),
      rankWith(),
    );
    expect(writtenAfterFirstStep(g)).toBe(1);
    expect(r.tree.candidates.map((c) => c.text)).toContain('B1');
  });

  it('goes on while the best path is still open', async () => {
    const g = script(false);
    const r = await decode(
      Q,
      { generator: g, retriever: retriever() },
      settings({ passagesPerStep: 2, maxDepth: 3, stopAtFirstAnswer: true }),
      rankWith(),
    );
    expect(r.tree.candidates.map((c) => c.text)).toEqual(expect.arrayContaining(['A1']));
  });

  it('refuses a value that is not true or false', async () => {
    const g = script(true);
    await expect(
      decode(
        Q,
        { generator: g, retriever: retriever() },
        settings({ stopAtFirstAnswer: 'yes' as unknown as boolean }),
        rankWith(),
      ),
    ).rejects.toThrow(/true or false/);
  });
});
