import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadModelPack, HubUnreachableError, parseArgs } from '../../../scripts/models';
import { DEFAULT_EMBEDDER, HUB_NLI, HUB_RERANKER, resolveEvaluatorConfig } from '../../../src/evaluator/config';
import { resolveModelSource } from '../../../src/evaluator/pack';

const HUB = 'https://hub.test';

/** A fake hub holding the given files of one model. */
function fakeHub(files: Record<string, string>): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = String(input);
    const name = url.replace(/^.*\/resolve\/main\//, '');
    return name in files ? new Response(files[name]) : new Response('missing', { status: 404 });
  }) as typeof fetch;
}

const PACK = {
  'config.json': '{"model_type":"bert"}',
  'tokenizer.json': '{}',
  'tokenizer_config.json': '{}',
  'onnx/model.onnx': 'weights',
  'onnx/model_quantized.onnx': 'q8 weights',
};

describe('npm run models (model pack download)', () => {
  it('writes config, tokenizer and weights under <out>/<owner>/<name>/, skipping optional files the model lacks', async () => {
    const out = mkdtempSync(join(tmpdir(), 'packs-'));
    const dir = await downloadModelPack({
      id: 'Xenova/tiny',
      outDir: out,
      endpoint: HUB,
      fetch: fakeHub(PACK),
      log: () => {},
    });
    expect(dir).toBe(join(out, 'Xenova/tiny'));
    expect(readFileSync(join(dir, 'onnx/model_quantized.onnx'), 'utf8')).toBe('q8 weights');
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
  });

  it('lists each downloaded model in evaluator-pack.json, which the app reads to use the pack instead of the hub', async () => {
    const out = mkdtempSync(join(tmpdir(), 'packs-'));
    const quiet = { outDir: out, endpoint: HUB, fetch: fakeHub(PACK), log: () => {} };
    await downloadModelPack({ id: DEFAULT_EMBEDDER, ...quiet });
    await downloadModelPack({ id: HUB_RERANKER, dtypes: ['q8'], ...quiet });
    // The app, served from /site/ with the pack at /site/models/, reading the files just written.
    const served = async (url: string) => {
      const path = join(out, decodeURIComponent(new URL(url).pathname.replace(/^\/site\/models\//, '')));
      return existsSync(path) ? new Response(readFileSync(path)) : new Response('', { status: 404 });
    };
    // The hub's critic chosen (?critic=hub): the pack must bring it too.
    const config = resolveEvaluatorConfig({ reranker: HUB_RERANKER, nli: HUB_NLI }, 'https://demo.test/site/');
    expect((await resolveModelSource(config, 'https://demo.test/site/', served)).source.reason).toMatch(
      `lacks ${HUB_NLI}`,
    );

    await downloadModelPack({ id: HUB_NLI, ...quiet });
    await downloadModelPack({ id: DEFAULT_EMBEDDER, dtypes: ['fp32'], ...quiet }); // again: replaced, not listed twice
    const manifest = JSON.parse(readFileSync(join(out, 'evaluator-pack.json'), 'utf8')) as {
      models: { id: string; dtypes: string[] }[];
    };
    expect(manifest.models).toEqual(
      [
        { id: DEFAULT_EMBEDDER, dtypes: ['fp32'] },
        { id: HUB_RERANKER, dtypes: ['q8'] },
        { id: HUB_NLI, dtypes: ['fp32', 'q8'] },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const asked: string[] = [];
    const r = await resolveModelSource(config, 'https://demo.test/site/', (url) => (asked.push(url), served(url)));
    expect(r.config.source).toBe('local');
    expect(asked).toEqual(['https://demo.test/site/models/evaluator-pack.json']);
  });

  it('says plainly when the hub cannot be reached, and leaves nothing behind', async () => {
    const out = mkdtempSync(join(tmpdir(), 'packs-'));
    const offline = (async () => {
      throw new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND hub.test') });
    }) as typeof fetch;
    const err = await downloadModelPack({
      id: 'Xenova/tiny',
      outDir: out,
      endpoint: HUB,
      fetch: offline,
      log: () => {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubUnreachableError);
    expect((err as Error).message).toMatch(
      /Cannot reach the Hugging Face hub at https:\/\/hub\.test \(getaddrinfo ENOTFOUND hub\.test\)/,
    );
    expect(readdirSync(out)).toEqual([]);
  });

  it('names the missing required file and keeps an earlier complete pack intact', async () => {
    const out = mkdtempSync(join(tmpdir(), 'packs-'));
    await downloadModelPack({ id: 'Xenova/tiny', outDir: out, endpoint: HUB, fetch: fakeHub(PACK), log: () => {} });
    const { 'onnx/model.onnx': _gone, ...broken } = PACK;
    await expect(
      downloadModelPack({ id: 'Xenova/tiny', outDir: out, endpoint: HUB, fetch: fakeHub(broken), log: () => {} }),
    ).rejects.toThrow(/Xenova\/tiny: onnx\/model\.onnx could not be downloaded \(HTTP 404/);
    expect(readFileSync(join(out, 'Xenova/tiny/onnx/model.onnx'), 'utf8')).toBe('weights');
    expect(readdirSync(join(out, 'Xenova'))).toEqual(['tiny']);
  });

  it('refuses ids that would escape the pack folder', async () => {
    const out = mkdtempSync(join(tmpdir(), 'packs-'));
    await expect(downloadModelPack({ id: '../etc', outDir: out, fetch: fakeHub(PACK) })).rejects.toThrow(
      /not a model id/,
    );
    expect(existsSync(join(out, '..', 'etc'))).toBe(false);
  });

  it('parses --evaluator into the default embedder, --hub-critic into the hub judges, --generator into the hook', () => {
    const a = parseArgs([
      '--evaluator',
      '--hub-critic',
      'Xenova/bge-small-en-v1.5',
      '--dtype',
      'q8',
      '--generator',
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    ]);
    expect(a.ids).toEqual([
      'Xenova/all-MiniLM-L6-v2',
      'Xenova/ms-marco-MiniLM-L-6-v2',
      'Xenova/nli-deberta-v3-xsmall',
      'Xenova/bge-small-en-v1.5',
    ]);
    expect(a.dtypes).toEqual(['q8']);
    expect(a.generator).toEqual(['Qwen2.5-0.5B-Instruct-q4f32_1-MLC']);
    expect(() => parseArgs(['--dtype'])).toThrow(/needs a value/);
  });
});
