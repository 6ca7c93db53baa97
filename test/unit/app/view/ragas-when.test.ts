// When the answer-quality check (RAGAS) runs: on the CPU engine only when the reader asks (its
// model calls would hold the engine as long again as the answer), after each answer on WebGPU.
import { describe, expect, it } from 'vitest';
import { ragasWhen, ragasWhenSentence } from '../../../../src/app/view/ragas-when';

const SMOL = { model: 'SmolLM2-135M-Instruct.Q4_1.gguf', engine: 'llama.cpp' };

describe('when the answer-quality check runs', () => {
  it('waits for the reader on the CPU engine, runs after the answer on WebGPU', () => {
    expect(ragasWhen(SMOL)).toBe('on-request');
    expect(ragasWhen({ model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', engine: 'web-llm' })).toBe('after-each-answer');
    expect(ragasWhen('not recorded')).toBe('on-request');
    expect(ragasWhen(null)).toBe('after-each-answer');
    expect(ragasWhenSentence('wllama')).toMatch(/CPU here, so it runs only when you ask/);
    expect(ragasWhenSentence('webllm')).toMatch(/WebGPU here, so it runs after each answer/);
    for (const e of ['wllama', 'webllm', undefined] as const)
      expect(ragasWhenSentence(e)).toMatch(/A new question cancels a check under way/);
  });
});
