import { describe, expect, it } from 'vitest';
import {
  fuseReadings,
  readingsRetriever,
  searchPlan,
  topicQuestions,
} from '../../../../src/core/conversation/search-plan';
import type { Retriever, ScoredPassage } from '../../../../src/core/ports';

const thread = ['What is a MIME glob?', 'How do I open a file for reading in Rust?', 'And how do I close it?'];

describe('searchPlan', () => {
  it('searches a new subject as itself, whatever the thread held before', () => {
    const plan = searchPlan('How do I pass an error up to the caller?', thread);
    expect(plan).toMatchObject({ dependence: 'standalone', queries: ['How do I pass an error up to the caller?'] });
    expect(plan.searched).toBeNull();
  });

  it('searches a follow-up with the questions of its own topic only, newest first, and says what it searched', () => {
    const plan = searchPlan('What about writing to it?', thread);
    // The MIME question came before the topic began: it is not searched.
    expect(plan.queries).toEqual([
      'What about writing to it? And how do I close it? How do I open a file for reading in Rust?',
    ]);
    expect(plan.searched).toBe(plan.queries[0]);
    expect(plan.dependence).toBe('follow-up');
  });

  it("keeps a generator's rewrite as the follow-up's search", () => {
    const plan = searchPlan('And how do I close it?', thread.slice(0, 2), {
      rewrite: 'How do I close a file in Rust?',
    });
    expect(plan.queries).toEqual(['How do I close a file in Rust?']);
    expect(plan.searched).toBe('How do I close a file in Rust?');
  });

  it('searches both readings when unsure: as typed first, then with its subject', () => {
    const plan = searchPlan('How does that interact with trait objects?', thread.slice(0, 2));
    expect(plan.dependence).toBe('unsure');
    expect(plan.queries).toEqual([
      'How does that interact with trait objects?',
      'How does that interact with trait objects? How do I open a file for reading in Rust?',
    ]);
  });

  it('searches the first question of a thread as typed', () => {
    expect(searchPlan('  why?  ', [])).toEqual({
      dependence: 'standalone',
      reason: 'the first question of the thread',
      queries: ['why?'],
      searched: null,
    });
  });
});

describe('topicQuestions', () => {
  it('goes back to the last question that stood alone, and no more than three', () => {
    expect(topicQuestions(thread)).toEqual(thread.slice(1));
    expect(topicQuestions(['Tell me about tides.', 'Why?', 'And then?', 'How?', 'And?'])).toEqual([
      'And then?',
      'How?',
      'And?',
    ]);
    expect(topicQuestions([])).toEqual([]);
  });
});

describe('fuseReadings', () => {
  const list = (...ids: string[]) => ids.map((id) => ({ id }));

  it('puts what both readings found first, then alternates by rank, the typed reading winning ties', () => {
    const fused = fuseReadings([list('a', 'b', 'c'), list('x', 'c', 'y')], 4).map((p) => p.id);
    expect(fused).toEqual(['c', 'a', 'x', 'b']);
  });

  it('returns a single reading unchanged, counts a duplicate once, and honours k', () => {
    expect(fuseReadings([list('a', 'b')], 1).map((p) => p.id)).toEqual(['a']);
    expect(fuseReadings([list('a', 'a', 'b'), list('b')], 5).map((p) => p.id)).toEqual(['b', 'a']);
    expect(fuseReadings([list('a'), list('b')], 0)).toEqual([]);
  });
});

describe('readingsRetriever', () => {
  const passage = (id: string) => ({ id, docId: 'd', text: id, score: 1 }) as unknown as ScoredPassage;
  const lists: Record<string, string[]> = {
    typed: ['a', 'b', 'c'],
    joined: ['x', 'b', 'y'],
    later: ['z'],
  };
  const asked: string[] = [];
  const base: Retriever = {
    retrieve: async (q, k) => (asked.push(q), (lists[q] ?? []).slice(0, k).map(passage)),
  };

  it("searches every reading where the decode searches the run's query, fused; any other search is the base's alone", async () => {
    const r = readingsRetriever(base, 'joined', ['typed', 'joined']);
    expect((await r.retrieve('joined', 3)).map((p) => p.id)).toEqual(['b', 'a', 'x']);
    expect(asked.sort()).toEqual(['joined', 'typed']);
    asked.length = 0;
    expect((await r.retrieve('later', 3)).map((p) => p.id)).toEqual(['z']);
    expect(asked).toEqual(['later']);
  });

  it('is the base itself with one reading', () => {
    expect(readingsRetriever(base, 'typed', ['typed'])).toBe(base);
    expect(readingsRetriever(base, 'typed', [])).toBe(base);
  });
});
