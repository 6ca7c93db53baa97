import { AutoTokenizer, env } from '@huggingface/transformers';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countTokens, decodePieces } from '../../doubles/word-tokenizer';

const TINY = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/models/tiny/');

const samples = [
  'Where is Lyon?',
  'Question: Who wrote "Les Misérables" in 1862?\nAnswer so far: (nothing yet)\nPassage: Hugo\nVictor Hugo, a French writer, wrote it.',
  "It's 3.5 km — roughly 2,000 steps; isn't it?",
  '[Retrieval]<paragraph>Title\ntext</paragraph>[Utility:5]',
];

describe('engine double token counts', () => {
  it('equal the tiny models’ real tokenizer (WordLevel + Whitespace) on the same text', async () => {
    env.allowRemoteModels = false;
    env.localModelPath = TINY;
    const tokenizer = await AutoTokenizer.from_pretrained('embedder');
    for (const text of samples) {
      expect(countTokens(text), text).toBe(tokenizer.encode(text, { add_special_tokens: false }).length);
    }
  });

  it('decode units give back the exact text, reflection tokens as single units', () => {
    for (const text of samples) expect(decodePieces(text).join('')).toBe(text);
    expect(decodePieces('[Relevant]Yes.[Utility:5]')).toEqual(['[Relevant]', 'Yes', '.', '[Utility:5]']);
  });
});
