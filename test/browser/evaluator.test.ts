// The evaluator worker from the e2e build, in headless Chromium, on the WebGPU device
// (SwiftShader) and on WASM, with the tiny model pack served by the app itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPED_NLI, SHIPPED_RERANKER } from '../../src/evaluator/config';
import type { EvaluatorRun } from './pages/evaluator-page';
import { E2E_DIR, ROOT, launchBrowser, serveDir, type Served, breakEvaluatorWebGpu } from './harness';

interface Texts {
  passages: { id: string; text: string }[];
  queries: { text: string; expect: string }[];
  support: Record<'premise' | 'entailed' | 'unrelated' | 'contradicted', string>;
}
const texts = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/evaluator/texts.json'), 'utf8')) as Texts;
const passages = texts.passages.map((p) => p.text);
const queries = texts.queries.map((q) => q.text);
const expected = texts.queries.map((q) => texts.passages.findIndex((p) => p.id === q.expect));
const { premise, entailed, unrelated, contradicted } = texts.support;
const supportPairs = [entailed, unrelated, contradicted].map((hypothesis) => ({ premise, hypothesis }));

const PREFIX = '/deep/sub/path/';

async function openPage(
  browser: Browser,
  served: Served,
): Promise<{ page: Page; offOrigin: string[]; errors: string[] }> {
  const context = await browser.newContext();
  const offOrigin: string[] = [];
  const errors: string[] = [];
  const origin = new URL(served.url).origin;
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')) offOrigin.push(url);
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${served.url}test/browser/pages/evaluator.html`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
  return { page, offOrigin, errors };
}

function run(
  page: Page,
  device: 'auto' | 'wasm' | 'webgpu',
  models?: { embedder?: string; reranker?: string; nli?: string; source?: 'auto' },
): Promise<EvaluatorRun> {
  return page.evaluate(([d, p, q, s, m]) => window.runEvaluator(d, p, q, s, m), [
    device,
    passages,
    queries,
    supportPairs,
    models,
  ] as const);
}

describe('evaluator worker in headless Chromium', () => {
  let gpuBrowser: Browser;
  let served: Served;
  const runs: Partial<Record<'webgpu' | 'wasm', EvaluatorRun>> = {};

  beforeAll(async () => {
    gpuBrowser = await launchBrowser({ webgpu: true });
    served = await serveDir(E2E_DIR, { prefix: PREFIX });
  });
  afterAll(async () => {
    await gpuBrowser?.close();
    await served?.close();
  });

  it('runs on WebGPU when an adapter exists, says so, and ranks the matching passage first', async () => {
    const { page, offOrigin, errors } = await openPage(gpuBrowser, served);
    const r = await run(page, 'auto');
    runs.webgpu = r;
    expect(r.device.device).toBe('webgpu');
    expect(r.device.reason).toMatch(/adapter/i);
    expect(r.embeddingRankings.map((ranking) => ranking[0])).toEqual(expected);
    expect(r.relevanceRankings.map((ranking) => ranking[0])).toEqual(expected);
    const [e, u, c] = r.support;
    expect(e!.full).toBeGreaterThan(u!.full);
    expect(c!.none).toBeGreaterThan(Math.max(c!.full, c!.partial));
    expect(offOrigin).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('on WebGPU, loads the NLI model while the cross-encoder runs (the app asks relevance and support at once)', async () => {
    const { page, errors } = await openPage(gpuBrowser, served);
    const r = await page.evaluate(([p, q, s]) => window.runConcurrent('auto', p, q, s), [
      passages,
      queries[0]!,
      supportPairs,
    ] as const);
    expect(r.device.device).toBe('webgpu');
    expect(r.relevance).toEqual(runs.webgpu!.relevance[0]);
    r.support.forEach((sup, i) => expect(sup.full).toBeCloseTo(runs.webgpu!.support[i]!.full, 5));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('moves a model that fails on WebGPU to WASM, keeps answering, and reports which model and why', async () => {
    const { page } = await openPage(gpuBrowser, served);
    expect(await page.evaluate(() => window.evaluatorSteps.open('auto'))).toMatchObject({ device: 'webgpu' });
    const relevance = () =>
      page.evaluate(([q, p]) => window.evaluatorSteps.relevance(q, p), [queries[0]!, passages] as const);
    await page.evaluate((p) => window.evaluatorSteps.embed(p), passages);
    expect(await relevance()).toEqual(runs.webgpu!.relevance[0]);
    // The failure the app met on SwiftShader, injected into the evaluator's worker before the NLI model's first use.
    await breakEvaluatorWebGpu(page);
    const support = await page.evaluate((p) => window.evaluatorSteps.support(p), supportPairs);
    support.forEach((sup, i) => expect(sup.full).toBeCloseTo(runs.webgpu!.support[i]!.full, 5));
    const after = await page.evaluate(() => window.evaluatorSteps.devices());
    expect(after.models.map((m) => [m.role, m.device])).toEqual([
      ['embedder', 'webgpu'],
      ['reranker', 'webgpu'],
      ['nli', 'wasm'],
    ]);
    const nli = after.models[2]!;
    expect(nli).toMatchObject({
      fellBackFrom: 'webgpu',
      loaded: true,
      reason: expect.stringMatching(/^NLI fell back to WASM: .*injected by the test/),
    });
    expect(after.events.at(-1)).toEqual(nli);
    expect(after.summary).toEqual({
      device: 'webgpu + wasm',
      reason: expect.stringMatching(/NLI fell back to WASM: .*injected/),
    });
    // That ORT instance is now broken for every model; the others follow the NLI model when they fail.
    expect(await relevance()).toEqual(runs.webgpu!.relevance[0]);
    await page.context().close();
  });

  it('runs on WASM when asked and gets the same rankings as on WebGPU', async () => {
    const { page, offOrigin } = await openPage(gpuBrowser, served);
    const r = await run(page, 'wasm');
    runs.wasm = r;
    expect(r.device).toEqual({ device: 'wasm', reason: expect.stringMatching(/settings/) });
    expect(runs.webgpu).toBeDefined();
    expect(r.embeddingRankings).toEqual(runs.webgpu!.embeddingRankings);
    expect(r.relevanceRankings).toEqual(runs.webgpu!.relevanceRankings);
    r.relevance.flat().forEach((p, i) => expect(p).toBeCloseTo(runs.webgpu!.relevance.flat()[i]!, 4));
    expect(offOrigin).toEqual([]);
    await page.context().close();
  });

  it('loads the models from the app (ORT wasm included) and reports progress in bytes and files', () => {
    const requested = served.requests;
    expect(requested.some((p) => p.startsWith(`${PREFIX}models/tiny/embedder/onnx/model.onnx`))).toBe(true);
    expect(requested.some((p) => /\/assets\/ort-wasm-simd-threaded\.asyncify-[\w-]+\.wasm$/.test(p))).toBe(true);
    const ready = runs.wasm!.progress.filter((p) => p.status === 'ready');
    expect(ready.map((p) => p.role).sort()).toEqual(['embedder', 'nli', 'reranker']);
    for (const p of ready) {
      expect(p.totalBytes).toBeGreaterThan(0);
      expect(p.filesDone).toBe(p.filesTotal);
    }
  });

  it('falls back to WASM without a WebGPU adapter and says why', async () => {
    const plain = await launchBrowser({ webgpu: false });
    try {
      const { page } = await openPage(plain, served);
      const r = await run(page, 'auto');
      expect(r.device.device).toBe('wasm');
      expect(r.device.reason).toMatch(/no WebGPU|no adapter/);
      expect(r.relevanceRankings).toEqual(runs.webgpu!.relevanceRankings);
    } finally {
      await plain.close();
    }
  });

  it('finds the model pack the app serves by itself (source auto) and never asks the hub', async () => {
    const { page, offOrigin } = await openPage(gpuBrowser, served);
    const before = served.requests.length;
    const r = await run(page, 'wasm', { source: 'auto' });
    expect(r.source).toEqual({
      source: 'local',
      reason: `Found the evaluator models in the local model pack at ${PREFIX}models/.`,
    });
    expect(r.relevanceRankings).toEqual(runs.webgpu!.relevanceRankings);
    const asked = served.requests.slice(before);
    expect(asked).toContain(`${PREFIX}models/evaluator-pack.json`);
    expect(asked).toContain(`${PREFIX}models/tiny/nli/config.json`);
    expect(offOrigin).toEqual([]);
    await page.context().close();
  });

  it("judges with the critic the site ships, from the site's own files, as int8 on WASM beside an embedder on WebGPU", async () => {
    const { page, offOrigin, errors } = await openPage(gpuBrowser, served);
    const before = served.requests.length;
    const r = await run(page, 'auto', { reranker: SHIPPED_RERANKER, nli: SHIPPED_NLI });
    // Its floor, as in Node (test/unit/workers/evaluator/shipped-critic.test.ts): the answering passage among the best two.
    r.relevanceRankings.forEach((ranking, i) => expect(ranking.slice(0, 2), queries[i]).toContain(expected[i]));
    const [e, u, c] = r.support;
    expect(e!.full).toBeGreaterThan(u!.full);
    expect(e!.full).toBeGreaterThan(c!.full);
    expect(r.models.map((m) => [m.role, m.model, m.device])).toEqual([
      ['embedder', 'tiny/embedder', 'webgpu'],
      ['reranker', SHIPPED_RERANKER, 'wasm'],
      ['nli', SHIPPED_NLI, 'wasm'],
    ]);
    const asked = served.requests.slice(before);
    for (const id of [SHIPPED_RERANKER, SHIPPED_NLI])
      expect(asked).toContain(`${PREFIX}critic/${id}/onnx/model_quantized.onnx`);
    expect(offOrigin).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('names the model that failed to load', async () => {
    const { page } = await openPage(gpuBrowser, served);
    const message = await page.evaluate(
      ([p, q, s]) =>
        window.runEvaluator('wasm', p, q, s, { embedder: 'tiny/not-there' }).then(
          () => 'no error',
          (e: Error) => e.message,
        ),
      [passages, queries, supportPairs] as const,
    );
    expect(message).toMatch(/embedding model "tiny\/not-there"/);
    await page.context().close();
  });
});
