import { describe, expect, it } from 'vitest';
import { WllamaGenerator, type WllamaEngine } from '../../../../src/generator/wllama/decoder';
import type { WllamaChatChunk } from '../../../../src/generator/wllama/protocol';

/** An engine that streams a fixed reply word by word and reports llama.cpp-shaped timings. */
function engine(reply: string): WllamaEngine {
  return {
    chatStream: async (_id, _req, onChunk: (c: WllamaChatChunk) => void | Promise<void>) => {
      const words = reply.split(/(?=\s)/);
      for (const w of words)
        await onChunk({ choices: [{ delta: { content: w }, finish_reason: null, logprobs: null }] });
      await onChunk({
        choices: [{ delta: {}, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: 40, completion_tokens: words.length },
        timings: { cache_n: 8, prompt_n: 32, predicted_n: words.length, predicted_ms: 30, prompt_ms: 120 },
      });
    },
    complete: async () => {
      throw new Error('not used');
    },
    abort: () => {},
    tokenIds: async (t) => t.map(() => null),
  };
}

describe('the llama.cpp writer streams, so a plain answer shows its first words early', () => {
  it('hands each longer prefix of the reply to onText and returns the whole reply', async () => {
    const gen = new WllamaGenerator(engine('The tower was built in 1889.'));
    const seen: string[] = [];
    const text = await gen.write('When was the tower built?', { maxTokens: 50, onText: (t) => seen.push(t) });
    expect(text).toBe('The tower was built in 1889.');
    expect(seen.length).toBeGreaterThan(3);
    seen.forEach((t, i) => i > 0 && expect(t.startsWith(seen[i - 1]!)).toBe(true));
    expect(seen.at(-1)).toBe('The tower was built in 1889.');
  });

  it("counts prefill time beside decode time from llama.cpp's own timings", async () => {
    const gen = new WllamaGenerator(engine('One two.'));
    await gen.write('a');
    await gen.write('b');
    expect(gen.prefill()).toMatchObject({ prefilled: 64, cached: 16, prefillMs: 240, decodeMs: 60 });
    gen.resetCost();
    expect(gen.prefill().prefillMs).toBe(0);
  });
});

describe('what a segment asks llama.cpp for', () => {
  it("asks for the alternatives only where a critique's slot reads them, never for a free-text segment", async () => {
    const asked: Record<string, unknown>[] = [];
    const base = engine('Bees make honey from nectar. They store it in wax cells.');
    const recording: WllamaEngine = {
      ...base,
      chatStream: (id, req, onChunk) => {
        asked.push(req as unknown as Record<string, unknown>);
        return base.chatStream(id, req, onChunk);
      },
    };
    const gen = new WllamaGenerator(recording, { nProbs: 20 });
    await gen.generateSegments([
      {
        question: 'How do bees make honey?',
        previous: [],
        passage: { id: 'p', docId: 'd', text: 'Bees make honey from nectar.', score: 1 },
      } as never,
    ]);
    const segment = asked.find((r) => !('grammar' in r))!;
    expect(segment.logprobs).toBe(true);
    expect(segment).not.toHaveProperty('top_logprobs');
    expect(segment).not.toHaveProperty('n_probs');
    // The critiques (one-word forms held by a grammar) still read their alternatives.
    const slots = asked.filter((r) => 'grammar' in r);
    expect(slots.length).toBeGreaterThan(0);
    for (const r of slots) expect(r.top_logprobs).toBe(20);
  });
});
