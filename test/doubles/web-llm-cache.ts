// What a finished web-llm load leaves in the browser's Cache API, written under
// the exact keys web-llm 0.2.86 uses (scopes webllm/model, webllm/config,
// webllm/wasm; the model URL cleaned to .../resolve/main/; tensor-cache.json
// listing the shards). The e2e build's engine double calls this after a load so
// the real `hasModelInCache` and `deleteModelAllInfoInCache` on the page see and
// free a "downloaded" model exactly as they would after a real download.
import type { ModelRecord } from '@mlc-ai/web-llm';

/** web-llm's cleanModelUrl: a hub folder gets /resolve/main/ appended. */
export function cleanModelUrl(modelUrl: string): string {
  let url = modelUrl + (modelUrl.endsWith('/') ? '' : '/');
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

const SHARDS = ['params_shard_0.bin', 'params_shard_1.bin'];

export async function recordDownload(record: ModelRecord): Promise<void> {
  if (typeof caches === 'undefined') return; // not a secure context: web-llm could not cache either
  const base = cleanModelUrl(record.model);
  const model = await caches.open('webllm/model');
  const manifest = {
    metadata: {},
    records: SHARDS.map((dataPath) => ({ dataPath, format: 'raw-shard', nbytes: 4, records: [] })),
  };
  await model.put(
    new URL('tensor-cache.json', base).href,
    new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json' } }),
  );
  for (const shard of SHARDS) await model.put(new URL(shard, base).href, new Response(new Uint8Array(4)));
  await model.put(new URL('tokenizer.json', base).href, new Response('{}'));
  const config = await caches.open('webllm/config');
  await config.put(new URL('mlc-chat-config.json', base).href, new Response('{}'));
  const wasm = await caches.open('webllm/wasm');
  await wasm.put(record.model_lib, new Response(new Uint8Array(8)));
}
