// Stands in for workers/generator/engine-factory.ts in the e2e build only
// (vite.config.ts aliases it in `--mode e2e`): the real worker and web-llm's
// real handler run around the scripted engine. The token delay makes streaming
// visible and leaves room to abort.
import type { MLCEngine } from '@mlc-ai/web-llm';
import { ScriptedEngine } from './scripted-engine';

export function createEngine(): MLCEngine {
  return new ScriptedEngine({ tokenDelayMs: 4 }) as unknown as MLCEngine;
}
