// The tiny generated models (test/setup/tiny-models.ts makes them), loaded from disk
// through the real transformers.js with remote models off.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TINY_MODEL_IDS } from '../../../scripts/make-tiny-models';
import type { RuntimeOptions } from '../../../workers/evaluator/runtime';

export { TINY_MODEL_IDS };

export const tinyRuntime = (extra: Partial<RuntimeOptions> = {}): RuntimeOptions => ({
  source: 'local',
  localModelPath: join(ROOT, 'test/fixtures/models'),
  ...extra,
});

export interface Texts {
  passages: { id: string; text: string }[];
  queries: { text: string; expect: string }[];
  support: Record<'premise' | 'entailed' | 'partly' | 'unrelated' | 'contradicted', string>;
}

export const texts = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/evaluator/texts.json'), 'utf8')) as Texts;

export const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
