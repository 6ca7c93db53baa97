import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EMBEDDER,
  DEFAULT_NLI,
  DEFAULT_RERANKER,
  embedderPooling,
  resolveEvaluatorConfig,
} from '../../../src/evaluator/config';
import { pickDevice } from '../../../workers/evaluator/device';

describe('evaluator config', () => {
  it('defaults to the hub models, found in a local pack when there is one (source auto), and auto device', () => {
    const c = resolveEvaluatorConfig({}, 'https://example.org/');
    expect([c.embedder.id, c.reranker.id, c.nli.id]).toEqual([DEFAULT_EMBEDDER, DEFAULT_RERANKER, DEFAULT_NLI]);
    expect(c.source).toBe('auto');
    expect(c.device).toBe('auto');
  });

  it('resolves the local model pack as an absolute path (not a URL) under a sub-path', () => {
    const c = resolveEvaluatorConfig(
      { source: 'local', embedder: 'tiny/embedder' },
      'https://example.org/apps/rag/index.html',
    );
    expect(c.localModelPath).toBe('/apps/rag/models/');
    expect(c.embedder).toEqual({ id: 'tiny/embedder' });
  });

  it('rejects an empty model id with a clear message', () => {
    expect(() => resolveEvaluatorConfig({ nli: '  ' }, 'https://example.org/')).toThrow(/model id is empty/);
  });
});

describe('embedder pooling', () => {
  it('takes the [CLS] token for the families trained that way, the mean for the rest, by the name alone', () => {
    for (const id of [
      'Xenova/bge-small-en-v1.5',
      'bge-small-en-v1.5',
      'BAAI/bge-m3',
      'Snowflake/snowflake-arctic-embed-xs',
    ])
      expect([id, embedderPooling(id)]).toEqual([id, 'cls']);
    for (const id of [
      'Xenova/all-MiniLM-L6-v2',
      'e5-small-v2',
      'Xenova/gte-small',
      'nomic-embed-text-v1.5',
      'bge-reranker-base',
    ])
      expect([id, embedderPooling(id)]).toEqual([id, 'mean']);
  });
});

describe('device choice', () => {
  it('uses WebGPU when an adapter is granted', async () => {
    const r = await pickDevice('auto', { requestAdapter: async () => ({}) });
    expect(r.device).toBe('webgpu');
  });

  it('falls back to WASM and says why when there is no adapter, no WebGPU, or an error', async () => {
    expect(await pickDevice('auto', { requestAdapter: async () => null })).toMatchObject({
      device: 'wasm',
      reason: expect.stringMatching(/no adapter/),
    });
    expect(await pickDevice('auto', undefined)).toMatchObject({
      device: 'wasm',
      reason: expect.stringMatching(/no WebGPU/),
    });
    const failing = { requestAdapter: () => Promise.reject(new Error('GPU process crashed')) };
    expect((await pickDevice('webgpu', failing)).reason).toMatch(/GPU process crashed/);
  });

  it('honours a WASM preference even with an adapter', async () => {
    expect(await pickDevice('wasm', { requestAdapter: async () => ({}) })).toMatchObject({
      device: 'wasm',
      reason: expect.stringMatching(/settings/),
    });
  });
});
