import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveModel, type LocalPack } from '../../../../src/generator/catalogue';
import { buildsFor, HubUnreachableError, packBuild } from '../../../../scripts/models-webllm';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'webllm-pack-'));
  dirs.push(d);
  return d;
};

/** An in-memory hub with one model in web-llm's layout. */
function fakeHub(files: Record<string, string>): typeof fetch {
  return (async (url: string | URL) => {
    const body = files[String(url)];
    return body === undefined ? new Response('nope', { status: 404 }) : new Response(body);
  }) as typeof fetch;
}

describe('offline generator model pack', () => {
  const build = buildsFor('qwen2.5-0.5b:f32')[0]!;
  const base = `https://hub.test/mlc-ai/${build.modelId}/resolve/main/`;

  it('writes config, shards, tokenizer and library where the app looks, and the app resolves them locally', async () => {
    const out = tmp();
    await packBuild(build, {
      outDir: out,
      hub: 'https://hub.test',
      libBase: 'https://libs.test/',
      log: () => {},
      fetch: fakeHub({
        [`${base}mlc-chat-config.json`]: JSON.stringify({ tokenizer_files: ['tokenizer.json'] }),
        [`${base}ndarray-cache.json`]: JSON.stringify({
          records: [{ dataPath: 'params_shard_0.bin' }, { dataPath: 'params_shard_1.bin' }],
        }),
        [`${base}params_shard_0.bin`]: 'A',
        [`${base}params_shard_1.bin`]: 'B',
        [`${base}tokenizer.json`]: '{}',
        [`https://libs.test/${build.lib}`]: 'wasm',
      }),
    });
    const dir = join(out, build.modelId, 'resolve/main');
    for (const f of [
      'mlc-chat-config.json',
      'tensor-cache.json',
      'params_shard_0.bin',
      'params_shard_1.bin',
      'tokenizer.json',
    ])
      expect(existsSync(join(dir, f)), f).toBe(true);
    expect(readFileSync(join(out, 'libs', build.lib), 'utf8')).toBe('wasm');
    const pack = JSON.parse(readFileSync(join(out, 'app-config.json'), 'utf8')) as LocalPack;
    const resolved = resolveModel({ kind: 'catalogue', id: 'qwen2.5-0.5b' }, 'f32', 'https://site.test/sub/', pack);
    expect(resolved.local).toBe(true);
    expect(resolved.record.model).toBe(`https://site.test/sub/models/webllm/${build.modelId}/resolve/main/`);
  });

  it('says plainly when the hub is unreachable and leaves nothing half-written', async () => {
    const out = join(tmp(), 'webllm');
    const err = await packBuild(build, {
      outDir: out,
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof fetch,
      log: () => {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubUnreachableError);
    expect((err as Error).message).toMatch(/Cannot reach huggingface\.co.*needs the network once/);
    expect(existsSync(out)).toBe(false);
  });

  it('knows both builds of a catalogue model and rejects unknown ids with the list', () => {
    expect(buildsFor('llama-3.2-1b').map((b) => b.modelId)).toEqual([
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    ]);
    expect(() => buildsFor('gpt-9')).toThrow(/Unknown generator model "gpt-9".*qwen2\.5-1\.5b/);
  });
});
