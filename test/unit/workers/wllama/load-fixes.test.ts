// The load settings a GGUF gets from its header, on every combination (the real files' headers
// are read in the real tier: test/real/gguf-headers.test.ts).
import { describe, expect, it } from 'vitest';
import { GEMMA_TEMPLATE, loadFixes } from '../../../../workers/wllama/load-fixes';

describe('load fixes', () => {
  it('keeps the whole KV cache for a sliding-window model, so a shared prompt prefix can be reused', () => {
    expect(loadFixes({ architecture: 'gemma3', slidingWindow: true, chatTemplate: true })).toEqual({ swa_full: true });
    expect(loadFixes({ architecture: 'llama', slidingWindow: false, chatTemplate: true })).toEqual({});
  });

  it("gives a Gemma file without a chat template Gemma's own, which opens the first user turn with the system text", () => {
    expect(loadFixes({ architecture: 'gemma3', slidingWindow: false, chatTemplate: false })).toEqual({
      chat_template: GEMMA_TEMPLATE,
    });
    expect(GEMMA_TEMPLATE).toContain("first_user_prefix = messages[0]['content']");
    expect(GEMMA_TEMPLATE).toContain('<start_of_turn>');
    // Other architectures without a template keep llama.cpp's own choice.
    expect(loadFixes({ architecture: 'llama', slidingWindow: false, chatTemplate: false })).toEqual({});
  });
});
