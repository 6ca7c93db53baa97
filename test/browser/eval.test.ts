// The evaluation page runs the shipped question set end to end in the e2e build: the real
// app, library (seeded with the sample corpus), evaluator worker on the tiny models and the
// generator worker around the scripted engine double, then reports and exports the results.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalExport } from '../../src/eval-runner/summary';
import { E2E_DIR, OUTPUT_DIR, ROOT, launchBrowser, serveDir, type Served } from './harness';

const SAMPLE_LINES = readFileSync(join(ROOT, 'public/eval/sample-questions.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim()).length;

// Small decode so four configurations × the whole set fit in one test: one path, two passages, two segments.
const SETTINGS = {
  version: 1,
  settings: {
    decode: {
      mode: 'adaptive',
      threshold: 0.2,
      beamWidth: 1,
      maxDepth: 2,
      passagesPerStep: 2,
      critiqueSource: 'generator',
      blend: 0.5,
    },
    rank: { weights: { rel: 1, sup: 1, use: 0.5, seq: 0 }, hardConstraints: false },
    theme: 'light',
  },
};

describe('evaluation page (e2e build)', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    browser = await launchBrowser();
    served = await serveDir(E2E_DIR, { prefix: '/apps/eval/' });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('runs the shipped set through four configurations and produces the report', { timeout: 900_000 }, async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    await context.addInitScript((s) => localStorage.setItem('selfrag.settings', s), JSON.stringify(SETTINGS));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${served.url}?modelPack=tiny#/eval`);

    // Bad input first: a clear message naming the line, and the run stays disabled.
    await page.getByLabel('Questions (JSONL)').fill('{"question": "ok", "answers": ["a"]}\n{"question": "no answers"}');
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Line 2: "answers" must be a non-empty list');
    expect(await page.getByRole('button', { name: 'Run evaluation' }).isDisabled()).toBe(true);

    const lower = page.getByLabel(/lower threshold/);
    await lower.fill('0.9');
    await page.getByText('CRAG setting "lower" (0.9) must not exceed "upper" (0.5)').waitFor();
    await lower.fill('0.05');

    await page.getByRole('button', { name: 'Load the sample set' }).click();
    await page.getByText(`${SAMPLE_LINES} questions ready.`).waitFor();
    await page.getByRole('button', { name: 'Run evaluation' }).click();
    const total = SAMPLE_LINES * 4;
    // Either the run finishes or the page reports why it could not (then fail at once, with that message).
    await page.waitForFunction(
      () =>
        /^Finished/.test(document.querySelector('.eval-progress')?.textContent ?? '') ||
        document.querySelector('p.eval-error[role="alert"]') !== null,
      undefined,
      { timeout: 880_000, polling: 500 },
    );
    expect(await page.locator('p.eval-error[role="alert"]').allTextContents()).toEqual([]);
    expect(await page.locator('.eval-progress').textContent()).toBe(`Finished: ${total} answers.`);

    const rows = page.locator('table[aria-label="Summary by configuration"] tbody tr');
    expect(await rows.count()).toBe(4);
    const cell = (config: string, metric: string) =>
      page.locator(`tr[data-config="${config}"] td[data-metric="${metric}"]`).textContent();
    expect(await cell('no-retrieval', 'retrievalFrequency')).toBe('0.00');
    expect(await cell('rag', 'retrievalFrequency')).toBe('1.00');
    for (const config of ['no-retrieval', 'rag', 'self-rag', 'self-crag']) {
      for (const metric of ['accuracy', 'faithfulness', 'answerRelevance'])
        expect(await cell(config, metric)).toMatch(/^\d\.\d\d$/);
    }
    expect(await page.locator('svg[aria-label="Metrics by configuration"] rect').count()).toBeGreaterThan(8);
    await page.screenshot({ path: join(OUTPUT_DIR, 'eval-report.png'), fullPage: true });
    await page
      .locator('table[aria-label="Summary by configuration"]')
      .screenshot({ path: join(OUTPUT_DIR, 'eval-summary.png') });
    await page.locator('.eval-chart').screenshot({ path: join(OUTPUT_DIR, 'eval-chart.png') });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const data = JSON.parse(readFileSync((await download.path()) as string, 'utf8')) as EvalExport;
    expect(data.kind).toBe('selfrag-browser-evaluation');
    expect(data.records).toHaveLength(total);
    expect(data.records.filter((r) => r.error !== undefined)).toEqual([]);
    expect(data.summary.map((s) => s.config)).toEqual(['no-retrieval', 'rag', 'self-rag', 'self-crag']);
    expect(data.models.nli).toBe('tiny/nli');
    // Every Self-CRAG answer written from passages records the action taken on them (an answer whose
    // chosen path did not retrieve has none, though other candidates of its tree did).
    const selfCrag = data.records.filter((r) => r.config === 'self-crag' && r.contexts.length > 0);
    expect(selfCrag.length).toBeGreaterThan(0);
    for (const r of selfCrag) expect(r.actions.length).toBeGreaterThan(0);
    // Statements checked against a context are checked by the evaluator's NLI, and the report says so.
    const checked = data.records.filter(
      (x) => x.contexts.length > 0 && (x.ragas?.faithfulness.statements.length ?? 0) > 0,
    );
    expect(checked.length).toBeGreaterThan(0);
    for (const r of checked) expect(r.ragas?.faithfulness.models).toContain('nli: tiny/nli');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('measures each answer on the answer page by itself, naming the models; a new question drops the running measurement', {
    timeout: 300_000,
  }, async () => {
    const context = await browser.newContext();
    await context.addInitScript(
      (s) => localStorage.setItem('selfrag.settings', s),
      JSON.stringify({
        ...SETTINGS,
        settings: { ...SETTINGS.settings, decode: { ...SETTINGS.settings.decode, mode: 'always' } },
      }),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${served.url}?modelPack=tiny`);
    const panel = page.getByTestId('answer-metrics');
    const askQuestion = async (q: string) => {
      await page.fill('#question', q);
      await page.getByTestId('ask').click();
      await page.waitForSelector('[data-testid=answer][data-status=running]');
      await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 240_000 });
    };
    await askQuestion('How do bees make honey?');
    // No click: the finished answer is measured once it is on screen.
    await page.waitForSelector('[data-testid=answer-metrics][data-status=running]', { timeout: 60_000 });
    expect(await panel.getByRole('button', { name: /^Measure/ }).count()).toBe(0);
    // A new question while those figures are measured: they are dropped, and the page carries on.
    await askQuestion('Which place has the largest tidal range?');
    await page.waitForSelector('[data-testid=answer-metrics][data-status=done]', { timeout: 120_000 });
    expect(await panel.getAttribute('data-stale')).toBe('false');
    for (const metric of ['faithfulness', 'answerRelevance', 'contextRelevance']) {
      expect(await panel.locator(`dd[data-metric=${metric}]`).textContent()).toMatch(/^(\d\.\d\d|n\/a)/);
    }
    expect(await panel.textContent()).toContain('nli: tiny/nli');
    expect(Number(await page.getByTestId('metrics-calls').textContent())).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUTPUT_DIR, 'answer-metrics.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});
