// A critique whose reply wllama's glue cannot hand back (a byte piece of a split character among
// the alternatives: "invalid UTF-8") once failed the whole answer of a thread's follow-up in the
// page. It is asked again with the few alternatives a slot reads, and if that fails too, only that
// candidate is unread.
import { describe, expect, it } from 'vitest';
import { WllamaGenerator, type WllamaEngine } from '../../../../src/generator/wllama/decoder';
import type { WllamaChatChunk } from '../../../../src/generator/wllama/protocol';

const ANSWER = 'Bees make honey from nectar. They store it in wax cells.';

/** Free text streams; a critique (a grammar-held form) fails as wllama 3.8.1's glue does when `fails` says so. */
function engine(fails: (alternatives: number) => boolean, asked: number[]): WllamaEngine {
  return {
    chatStream: async (_id, req, onChunk: (c: WllamaChatChunk) => void | Promise<void>) => {
      const r = req as unknown as { grammar?: string; top_logprobs?: number };
      if (r.grammar) {
        asked.push(r.top_logprobs ?? 0);
        if (fails(r.top_logprobs ?? 0)) throw new SyntaxError('Bad control character in string literal in JSON');
        await onChunk({ choices: [{ delta: { content: 'Yes' }, finish_reason: 'stop', logprobs: null }] });
        return;
      }
      await onChunk({ choices: [{ delta: { content: ANSWER }, finish_reason: 'stop', logprobs: null }] });
    },
    complete: async () => {
      throw new Error('not used');
    },
    abort: () => {},
    tokenIds: async (t) => t.map(() => null),
  };
}

const request = {
  question: 'How do bees make honey?',
  previous: [],
  passage: { id: 'p', docId: 'd', text: 'Bees make honey from nectar.', score: 1 },
} as never;

describe('a critique reply that is not valid text', () => {
  it('is asked again with as few alternatives as a slot reads', async () => {
    const asked: number[] = [];
    const gen = new WllamaGenerator(
      engine((n) => n > 5, asked),
      { nProbs: 20 },
    );
    const [seg] = await gen.generateSegments([request]);
    expect(seg!.text).toBe(ANSWER);
    // Each critique: first with twenty, then once with five.
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.filter((n) => n === 20).length).toBe(asked.filter((n) => n === 5).length);
    expect(asked[0]).toBe(20);
    expect(asked[1]).toBe(5);
  });

  it('leaves that candidate unread and the answer going on when the retry fails too', async () => {
    const asked: number[] = [];
    const gen = new WllamaGenerator(
      engine(() => true, asked),
      { nProbs: 20 },
    );
    const [seg] = await gen.generateSegments([request]);
    expect(seg!.text).toBe(ANSWER);
    expect(seg!.withheld?.reason).toBe('unread');
  });

  it('still fails the answer when the free text itself cannot be read', async () => {
    const broken: WllamaEngine = {
      ...engine(() => false, []),
      chatStream: async () => {
        throw new SyntaxError('Unexpected token in JSON at position 3');
      },
    };
    const gen = new WllamaGenerator(broken, { nProbs: 20 });
    await expect(gen.generateSegments([request])).rejects.toMatchObject({ kind: 'malformed-output' });
  });
});
