// The critic the site ships: where it loads from whatever the other models' source, and what its
// real weights (public/critic/, trained by training/critic/) judge, through the worker's own adapters.
import { createHash } from 'node:crypto';
import { cpSync, copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_MODELS_DIR, SHIPPED_NLI, SHIPPED_RERANKER } from '../../../../src/evaluator/config';
import { createEmbedder } from '../../../../workers/evaluator/embedder';
import { createSupportModel } from '../../../../workers/evaluator/nli';
import { createReranker } from '../../../../workers/evaluator/reranker';
import { ROOT } from '../../../../scripts/make-tiny-models';
import { dot, texts, tinyRuntime, TINY_MODEL_IDS } from '../../evaluator/tiny';

const SHIPPED = join(ROOT, 'public', SHIPPED_MODELS_DIR);

/** A stand-in shipped folder holding the tiny models under the shipped names (int8 name, as shipped). */
function standInFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipped-'));
  const tiny = join(ROOT, 'test/fixtures/models');
  for (const [id, from] of [
    [SHIPPED_RERANKER, TINY_MODEL_IDS.reranker],
    [SHIPPED_NLI, TINY_MODEL_IDS.nli],
  ] as const) {
    cpSync(join(tiny, from), join(dir, id), { recursive: true });
    copyFileSync(join(dir, id, 'onnx/model.onnx'), join(dir, id, 'onnx/model_quantized.onnx'));
  }
  return dir;
}

describe('where the shipped critic loads from', () => {
  it('loads from the shipped folder even when the other models come from the hub, and says where it looked when it is missing', async () => {
    // Source 'hub' with no network here: only the shipped folder can answer.
    const reranker = createReranker({
      source: 'hub',
      shippedModelPath: standInFolder(),
      model: { id: SHIPPED_RERANKER },
    });
    const [bees, tides] = await reranker.score(texts.queries[0]!.text, [
      texts.passages[0]!.text,
      texts.passages[1]!.text,
    ]);
    expect(bees).toBeGreaterThan(tides!);
    await reranker.dispose();

    const missing = createReranker({
      source: 'hub',
      shippedModelPath: join(tmpdir(), 'no-such-critic'),
      model: { id: SHIPPED_RERANKER },
    });
    await expect(missing.score('q', ['p'])).rejects.toThrow(/site's own critic at .*no-such-critic/);
  });

  it('loads beside a model from another place at the same moment without either taking the other’s setting', async () => {
    const shipped = standInFolder();
    const embedder = createEmbedder({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' } });
    const nli = createSupportModel({ ...tinyRuntime({ shippedModelPath: shipped }), model: { id: SHIPPED_NLI } });
    const [vectors, support] = await Promise.all([
      embedder.embed([texts.passages[0]!.text, texts.queries[0]!.text]),
      nli.support([{ premise: texts.support.premise, hypothesis: texts.support.entailed }]),
    ]);
    expect(dot(vectors[0]!, vectors[1]!)).toBeGreaterThan(0.3);
    expect(support[0]!.full).toBeGreaterThan(support[0]!.none);
    await Promise.all([embedder.dispose(), nli.dispose()]);
  });
});

interface Card {
  name: string;
  files: Record<string, { bytes: number; sha256: string }>;
  training: { held_out_int8: Record<string, number> };
}

describe.each([SHIPPED_RERANKER, SHIPPED_NLI])('the shipped %s', (id) => {
  it('is the file its card names: every file matches its SHA-256, the weights are int8 and under 25 MB', () => {
    const card = JSON.parse(readFileSync(join(SHIPPED, id, 'card.json'), 'utf8')) as Card;
    expect(card.name).toBe(id);
    expect(Object.keys(card.files)).toContain('onnx/model_quantized.onnx');
    expect(Object.keys(card.files)).not.toContain('onnx/model.onnx');
    for (const [file, { bytes, sha256 }] of Object.entries(card.files)) {
      const data = readFileSync(join(SHIPPED, id, file));
      expect(data.length, file).toBe(bytes);
      expect(createHash('sha256').update(data).digest('hex'), file).toBe(sha256);
    }
    expect(card.files['onnx/model_quantized.onnx']!.bytes).toBeLessThan(25e6);
  });
});

describe('what the shipped critic judges (its real weights)', () => {
  const runtime = { source: 'local' as const, shippedModelPath: SHIPPED };

  // A floor, not its quality (docs/benchmarks-answer.md#who-critiques has that): a broken export,
  // swapped inputs or untrained weights fail it. It puts four of these five answering passages first.
  it('puts the passage that answers each question among the best two of five', async () => {
    const reranker = createReranker({ ...runtime, model: { id: SHIPPED_RERANKER } });
    const passages = texts.passages.map((p) => p.text);
    for (const q of texts.queries) {
      const scores = await reranker.score(q.text, passages);
      const mine = scores[texts.passages.findIndex((p) => p.id === q.expect)]!;
      expect(scores.filter((s) => s > mine).length, q.text).toBeLessThanOrEqual(1);
    }
    await reranker.dispose();
  });

  it('says a passage fully supports its own claim more than an unrelated or a contradicted one, and half of a claim partially', async () => {
    const nli = createSupportModel({ ...runtime, model: { id: SHIPPED_NLI } });
    const { premise, entailed, partly, unrelated, contradicted } = texts.support;
    const [e, p, u, c] = await nli.support(
      [entailed, partly, unrelated, contradicted].map((hypothesis) => ({ premise, hypothesis })),
    );
    expect(e!.full).toBeGreaterThan(u!.full);
    expect(e!.full).toBeGreaterThan(c!.full);
    // A claim half from elsewhere ("… and guard the queen") is partial, not full: the MaxSim
    // reading finds no match for the other half (the cosine read it as full, 0.56).
    expect(p!.partial).toBeGreaterThan(p!.full);
    expect(e!.full).toBeGreaterThan(p!.full);
    expect(e!.full + e!.partial + e!.none).toBeCloseTo(1, 5);
    await nli.dispose();
  });
});
