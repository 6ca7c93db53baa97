import { describe, expect, it } from 'vitest';
import type { EvaluatorProgress } from '../../../src/evaluator/config';
import { createEmbedder } from '../../../workers/evaluator/embedder';
import { dot, texts, tinyRuntime, TINY_MODEL_IDS } from './tiny';

const embedder = createEmbedder({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' } });

describe('embedder (tiny hashed bag-of-words model through transformers.js)', () => {
  it('returns one unit-length vector per text', async () => {
    const vectors = await embedder.embed(texts.passages.map((p) => p.text));
    expect(vectors).toHaveLength(texts.passages.length);
    for (const v of vectors) expect(dot(v, v)).toBeCloseTo(1, 5);
    expect(embedder.dimensions()).toBe(vectors[0]!.length);
  });

  it('retrieves, for each query, the passage that shares its words', async () => {
    const passages = await embedder.embed(texts.passages.map((p) => p.text));
    const queries = await embedder.embed(texts.queries.map((q) => q.text));
    const best = queries.map((q) => {
      const scores = passages.map((p) => dot(q, p));
      return texts.passages[scores.indexOf(Math.max(...scores))]!.id;
    });
    expect(best).toEqual(texts.queries.map((q) => q.expect));
  });

  it('gives the same vectors whatever the batch size', async () => {
    const one = createEmbedder({
      ...tinyRuntime({ batchSize: 1 }),
      model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' },
    });
    const all = texts.passages.map((p) => p.text);
    const [a, b] = [await one.embed(all), await embedder.embed(all)];
    a.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(b[i]!)));
  });

  it('returns nothing for no texts without loading anything', async () => {
    const missing = createEmbedder({ ...tinyRuntime(), model: { id: 'tiny/does-not-exist' } });
    expect(await missing.embed([])).toEqual([]);
  });

  it('reports loading progress in bytes and files, ending ready', async () => {
    const events: EvaluatorProgress[] = [];
    const e = createEmbedder({
      ...tinyRuntime({ onProgress: (p) => events.push(p) }),
      model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' },
    });
    await e.ready();
    const last = events.at(-1)!;
    expect(last.status).toBe('ready');
    expect(last.model).toBe(TINY_MODEL_IDS.embedder);
    expect(last.filesTotal).toBeGreaterThanOrEqual(3);
    expect(last.filesDone).toBe(last.filesTotal);
    expect(last.totalBytes).toBeGreaterThan(0);
    expect(last.loadedBytes).toBe(last.totalBytes);
    expect(events.some((p) => p.file === 'onnx/model.onnx')).toBe(true);
  });

  it('names the model and where it looked when the model cannot be loaded', async () => {
    const missing = createEmbedder({ ...tinyRuntime(), model: { id: 'tiny/does-not-exist' } });
    await expect(missing.embed(['honey'])).rejects.toThrow(
      /embedding model "tiny\/does-not-exist" from the local model pack/,
    );
  });

  it('honours an aborted signal between batches', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(embedder.embed(['honey'], ac.signal)).rejects.toThrow();
  });
});
