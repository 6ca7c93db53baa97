// A candidate that is not an answer (the generator withheld it: form text, a repeat, a refusal, a
// cut-off reply, an unread critique) is kept in the tree but never shown as the answer and never
// continued, whatever its scores say; when nothing else is left, the ranking says so.
import { describe, expect, it } from 'vitest';
import { runBeam } from '../../../src/core/beam';
import { decode } from '../../../src/core/decode';
import { DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';
import type { AnswerTree, Candidate } from '../../../src/core/types';
import { FakeCritic } from '../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator, scriptKey } from '../../doubles/scripted-generator';
import { rel, settings, sup, use } from './helpers';

const P1 = passage('p1', 'Lyon is a city in France.');
const P2 = passage('p2', 'Lyon sits where two rivers meet.');

function node(id: string, over: Partial<Candidate>): Candidate {
  return {
    id,
    parentId: null,
    depth: 0,
    text: id,
    passage: { ...P1, score: 1 },
    retrieve: { probs: null, retrieved: true, reason: 'always' },
    fromGenerator: {},
    tokenCount: 1,
    done: true,
    ...over,
  };
}

const tree = (candidates: Candidate[]): AnswerTree => ({ question: 'q', settings: settings(), candidates });

describe('withheld candidates in the beam', () => {
  it('rank below every answer, however well they score', () => {
    const form = node('form', {
      rel: rel(0.99),
      sup: sup(1, 0, 0),
      use: use(5),
      withheld: { reason: 'form-text', detail: 'instructions' },
    });
    const poor = node('poor', { rel: rel(0.3), sup: sup(0, 0.2, 0.8), use: use(1) });
    const { ranking } = runBeam(tree([form, poor]), DEFAULT_RANK_SETTINGS);
    expect(ranking.best.map((b) => b.candidate.id)).toEqual(['poor']);
    expect(ranking.scored.get('form')!.pathScore).toBeGreaterThan(ranking.scored.get('poor')!.pathScore);
    expect(ranking.withheld).toBeUndefined();
  });

  it('leave the answer empty, with the reasons, when nothing else was written', () => {
    const a = node('a', { use: use(5), withheld: { reason: 'cut-off', detail: 'limit' } });
    const b = node('b', { use: use(5), withheld: { reason: 'declined', detail: 'no' } });
    for (const finalPick of ['any-finished', 'deepest-level'] as const) {
      const { ranking } = runBeam(tree([a, b]), { ...DEFAULT_RANK_SETTINGS, finalPick });
      expect(ranking.best).toEqual([]);
      expect(ranking.withheld?.sort()).toEqual(['cut-off', 'declined']);
    }
  });

  it('leave the answer so far standing when every continuation of it was withheld', () => {
    const first = node('first', { done: false, use: use(4), rel: rel(0.9), sup: sup(1, 0, 0) });
    const again = (id: string) =>
      node(id, { parentId: 'first', depth: 1, use: use(5), withheld: { reason: 'repeat', detail: 'said already' } });
    for (const finalPick of ['any-finished', 'deepest-level'] as const) {
      const { ranking } = runBeam(tree([first, again('r1'), again('r2')]), { ...DEFAULT_RANK_SETTINGS, finalPick });
      expect(ranking.best.map((b) => b.candidate.id)).toEqual(['first']);
      expect(ranking.withheld).toBeUndefined();
    }
  });

  it('are never continued by the decode loop, though the model did not end the answer', async () => {
    const gen = new ScriptedGenerator({
      segments: {
        [scriptKey([], 'p1')]: {
          text: 'You answer questions about documents.',
          rel: rel(0.9),
          sup: sup(1, 0, 0),
          use: use(5),
          withheld: { reason: 'form-text', detail: 'instructions' },
        },
        [scriptKey([], 'p2')]: { text: 'Two rivers.', rel: rel(0.6), sup: sup(1, 0, 0), use: use(3) },
        [scriptKey(['Two rivers.'], 'p1')]: {
          text: 'In France.',
          rel: rel(0.6),
          sup: sup(1, 0, 0),
          use: use(3),
          done: true,
        },
        [scriptKey(['Two rivers.'], 'p2')]: {
          text: 'Rhone and Saone.',
          rel: rel(0.6),
          sup: sup(1, 0, 0),
          use: use(3),
          done: true,
        },
      },
    });
    const result = await decode(
      'Where is Lyon?',
      { generator: gen, retriever: new FakeRetriever([P1, P2]) },
      settings({ mode: 'always', passagesPerStep: 2, maxDepth: 3 }),
      DEFAULT_RANK_SETTINGS,
    );
    const expanded = gen.requests.map((r) => r.previous.join(' | '));
    expect(expanded).not.toContain('You answer questions about documents.');
    expect(result.ranking.best[0]!.candidate.text).toBe('Two rivers.');
  });

  it("are not sent to the critic for their support, and the kept candidates' scores do not change", async () => {
    const run = async (withhold: boolean) => {
      const gen = new ScriptedGenerator({
        segments: {
          [scriptKey([], 'p1')]: {
            text: 'Lyon is a city in France.',
            use: use(4),
            done: true,
            ...(withhold ? { withheld: { reason: 'earlier-answer' as const, detail: 'said in an earlier turn' } } : {}),
          },
          [scriptKey([], 'p2')]: { text: 'Two rivers meet at Lyon.', use: use(4), done: true },
        },
      });
      const critic = new FakeCritic();
      const result = await decode(
        'Where is Lyon?',
        { generator: gen, retriever: new FakeRetriever([P1, P2]), critic },
        settings({ mode: 'always', passagesPerStep: 2, maxDepth: 1, critiqueSource: 'evaluator' }),
        DEFAULT_RANK_SETTINGS,
      );
      return { critic, result };
    };
    const all = await run(false);
    const kept = await run(true);
    expect(all.critic.calls.filter((c) => c.kind === 'support').flatMap((c) => c.passageIds)).toEqual(['p1', 'p2']);
    expect(kept.critic.calls.filter((c) => c.kind === 'support').flatMap((c) => c.passageIds)).toEqual(['p2']);
    const answer = (r: typeof all) => r.result.tree.candidates.find((c) => c.passage?.id === 'p2')!;
    expect(answer(kept).sup).toEqual(answer(all).sup);
    expect(answer(kept).rel).toEqual(answer(all).rel);
    expect(kept.result.ranking.scored.get(answer(kept).id)!.pathScore).toBe(
      all.result.ranking.scored.get(answer(all).id)!.pathScore,
    );
    expect(kept.result.ranking.best.map((b) => b.candidate.text)).toEqual(['Two rivers meet at Lyon.']);
    // The withheld candidate's passage keeps its relevance: the page shows it with the evidence.
    const withheld = kept.result.tree.candidates.find((c) => c.withheld)!;
    expect(withheld.rel).toBeDefined();
    expect(withheld.sup).toBeUndefined();
  });
});
