// The engine double behaves as web-llm 0.2.86 does at the token level (read
// from its built source): these are the behaviours the generator tests rely on.
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { type Form, formToGrammar } from '../../../../src/generator/form';
import { FaithfulEngine, topProbs } from '../../../doubles/faithful-engine';

// A labelled form with free text and slots: what the double must hold a reply to.
const FORM: Form = [
  { kind: 'literal', text: 'Answer:' },
  { kind: 'text' },
  { kind: 'literal', text: '\nUtility:' },
  { kind: 'slot', name: 'use', alternatives: [' 1', ' 2', ' 3', ' 4', ' 5'] },
  { kind: 'literal', text: '\nNext:' },
  { kind: 'slot', name: 'decision', alternatives: [' retrieve', ' continue', ' done'] },
];
const grammar = formToGrammar(FORM);
const reply = {
  text: ' It opened in 2004.',
  slots: { use: { ' 4': 0.45, ' 5': 0.35, ' 3': 0.2 }, decision: { ' done': 1 } },
};
const request = (over: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest =>
  ({
    messages: [{ role: 'user', content: 'When did it open?' }],
    logprobs: true,
    top_logprobs: 5,
    temperature: 1,
    top_p: 1e-5,
    response_format: { type: 'grammar', grammar },
    ...over,
  }) as ChatCompletionRequest;

describe('the faithful web-llm double', () => {
  it('gives the stop token its own log-prob entry, outside the message', async () => {
    const engine = await FaithfulEngine.create({
      family: 'qwen2.5',
      script: [reply],
      config: { repetition_penalty: 1 },
    });
    const res = (await engine.chatCompletion(request({ stream: false }))) as ChatCompletion;
    const entries = res.choices[0]!.logprobs!.content!;
    expect(entries.at(-1)!.token).toBe('<|im_end|>');
    expect(res.choices[0]!.message.content).toBe('Answer: It opened in 2004.\nUtility: 4\nNext: done');
    expect(res.usage!.completion_tokens).toBe(entries.length - 1);
  });

  it("applies the model's repetition penalty from its config unless the request overrides it", async () => {
    const engine = await FaithfulEngine.create({ family: 'qwen2.5', script: () => reply });
    const byDefault = (await engine.chatCompletion(request({ stream: false }))) as ChatCompletion;
    const neutral = (await engine.chatCompletion(request({ stream: false, repetition_penalty: 1 }))) as ChatCompletion;
    expect(byDefault.choices[0]!.message.content).toMatch(/Utility: 5/); // "4" of "2004" was penalised
    expect(neutral.choices[0]!.message.content).toMatch(/Utility: 4/);
  });

  it("reports 'length' when the last token lands on max_tokens, even with the grammar complete", async () => {
    const engine = await FaithfulEngine.create({ family: 'llama3', script: () => reply });
    const free = (await engine.chatCompletion(request({ stream: false }))) as ChatCompletion;
    const n = free.usage!.completion_tokens;
    const capped = (await engine.chatCompletion(request({ stream: false, max_tokens: n }))) as ChatCompletion;
    expect(capped.choices[0]!.finish_reason).toBe('length');
    expect(capped.choices[0]!.message.content).toBe(free.choices[0]!.message.content);
  });

  it('streams one entry per chunk and holds back a token that ends mid-character', async () => {
    const engine = await FaithfulEngine.create({ family: 'qwen2.5', script: [{ ...reply, text: ' 東京 opened.' }] });
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of (await engine.chatCompletion(
      request({ stream: true }),
    )) as AsyncIterable<ChatCompletionChunk>)
      chunks.push(c);
    const withEntries = chunks.filter((c) => c.choices[0]?.logprobs);
    expect(withEntries.every((c) => c.choices[0]!.logprobs!.content!.length === 1)).toBe(true);
    expect(withEntries.length).toBe(engine.calls[0]!.ids.length); // all ids plus the stop entry, less the held-back one
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toContain(' 東京 opened.');
  });

  it('rejects with a string, as errors cross web-llm’s worker boundary', async () => {
    const engine = await FaithfulEngine.create({ family: 'llama2', script: [{ error: 'Error: device lost' }] });
    await expect(engine.chatCompletion(request({ stream: false }))).rejects.toBe('Error: device lost');
  });

  it('selects the top log-probs as web-llm does', () => {
    expect(topProbs(2, [0.1, 0.5, 0.05, 0.3, 0.05])).toEqual([
      [1, 0.5],
      [3, 0.3],
    ]);
  });
});
