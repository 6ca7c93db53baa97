// The load settings a GGUF gets from its header: read from the real files where they are here
// (SmolLM2: ChatML template, no sliding window; Gemma 3 base: sliding window, no template), and
// the rule itself on every combination.
import { openAsBlob } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GEMMA_TEMPLATE, loadFixes } from '../../../../workers/wllama/load-fixes';
import { readHeader } from '../../../../workers/wllama/vocab';
import { realModelsAvailable, realPath } from '../../../real/available';

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

describe.runIf(realModelsAvailable('GGUF headers of the real models'))('GGUF headers of the real models', () => {
  it('reads SmolLM2-135M-Instruct: llama, a chat template, no sliding window, its 49,152-token vocabulary', async () => {
    const h = await readHeader(await openAsBlob(realPath('smollm2')));
    expect(h?.traits).toEqual({ architecture: 'llama', slidingWindow: false, chatTemplate: true });
    expect(h?.vocab?.tokens).toHaveLength(49152);
    expect(loadFixes(h!.traits)).toEqual({});
  });

  it('reads Gemma 3 270M (the base model): gemma3, a sliding window, no chat template, 262,144 tokens', async () => {
    const h = await readHeader(await openAsBlob(realPath('gemma')));
    expect(h?.traits).toEqual({ architecture: 'gemma3', slidingWindow: true, chatTemplate: false });
    expect(h?.vocab?.tokens).toHaveLength(262144);
    expect(loadFixes(h!.traits)).toEqual({ swa_full: true, chat_template: GEMMA_TEMPLATE });
  });
});
