// Real tier, Node: the load settings a GGUF gets from its header, read from the real files
// (SmolLM2: ChatML template, no sliding window; Gemma 3 base: sliding window, no template). The
// rule itself, on every combination, is unit-tested in test/unit/workers/wllama/load-fixes.test.ts.
import { openAsBlob } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GEMMA_TEMPLATE, loadFixes } from '../../workers/wllama/load-fixes';
import { readHeader } from '../../workers/wllama/vocab';
import { realModelsAvailable, realPath } from './available';

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
