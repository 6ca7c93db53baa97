import { describe, expect, it } from 'vitest';
import { classifyError, GeneratorError } from '../../../src/generator/errors';

// Messages as web-llm 0.2.86 sends them across the worker boundary (strings).
describe('classifyError', () => {
  it.each([
    [
      'Error: WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine.',
      'no-webgpu',
    ],
    [
      'Error: The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).',
      'device-lost',
    ],
    [
      'Error: Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called `MLCEngine.reload()` to load the model before initiating chat operations.',
      'device-lost',
    ],
    ['TypeError: Failed to fetch', 'download'],
    [
      'Error: Cannot fetch https://huggingface.co/mlc-ai/x/resolve/main/mlc-chat-config.json err= TypeError: NetworkError',
      'download',
    ],
    [
      'Error: Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096',
      'context-too-long',
    ],
    ['RangeError: Array buffer allocation failed', 'out-of-memory'],
    ['Error: something odd', 'unknown'],
  ])('%s → %s', (message, kind) => {
    const e = classifyError(message);
    expect(e).toBeInstanceOf(GeneratorError);
    expect(e.kind).toBe(kind);
    expect(e.suggestion.length).toBeGreaterThan(10);
    expect(e.detail).toBe(message);
  });

  it('keeps an abort an abort', () => {
    expect(classifyError(new DOMException('x', 'AbortError')).kind).toBe('cancelled');
  });
});
