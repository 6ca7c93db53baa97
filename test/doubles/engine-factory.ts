// Stands in for workers/webllm/engine-factory.ts in the e2e build only
// (vite.config.ts aliases it in `--mode e2e`): the real worker and web-llm's
// real handler run around the scripted engine. The token delay makes streaming
// visible and leaves room to abort. A finished load is recorded in the Cache API
// as web-llm would, so the page's downloaded marks and deletes are real.
// A test can hold a load open (to act while the model is still loading) by creating
// the cache named HOLD_LOAD_CACHE; the load finishes once the test deletes it.
// Every call is told on ENGINE_CALLS_CHANNEL, so a test can see what the generator was asked.
import type { AppConfig, MLCEngine } from '@mlc-ai/web-llm';
import { defaultReply } from './default-script';
import { ENGINE_CALLS_CHANNEL, type HeardCall } from './engine-calls-name';
import { ScriptedEngine, type ScriptCall } from './scripted-engine';
import { HOLD_LOAD_CACHE } from './hold-load-name';
import { recordDownload } from './web-llm-cache';

async function heldOpen(): Promise<void> {
  while (await caches.has(HOLD_LOAD_CACHE)) await new Promise((r) => setTimeout(r, 50));
}

class CachingScriptedEngine extends ScriptedEngine {
  private config: AppConfig | undefined;

  override setAppConfig(config: AppConfig): void {
    this.config = config;
    super.setAppConfig(config);
  }

  override async reload(modelId: string | string[]): Promise<void> {
    await heldOpen();
    await super.reload(modelId);
    const id = Array.isArray(modelId) ? modelId[0] : modelId;
    const record = this.config?.model_list.find((m) => m.model_id === id);
    if (record) await recordDownload(record);
  }
}

const told = new BroadcastChannel(ENGINE_CALLS_CHANNEL);

/** The default reply, after telling the page what was asked. */
function toldReply(call: ScriptCall) {
  const heard: HeardCall = { kind: call.kind, messages: call.messages, prompt: call.prompt };
  told.postMessage(heard);
  return defaultReply(call);
}

export function createEngine(): MLCEngine {
  return new CachingScriptedEngine({ tokenDelayMs: 4, script: toldReply }) as unknown as MLCEngine;
}
