// The answer page in the e2e build (tiny evaluator models, the real generator
// worker around the scripted engine double), driven like a user would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPdf } from '../doubles/tiny-pdf';
import { PAPER_DECODE_SETTINGS } from '../../src/core/defaults';
import { useApp } from './app-page';
import { askAndSettle } from './ask';
import {
  E2E_DIR,
  OUTPUT_DIR,
  launchBrowser,
  serveDir,
  type Served,
  breakEvaluatorWebGpu,
  writeEmbedHost,
} from './harness';

// The tiny models come from the site's own model pack; the evaluator runs on its default
// device, WebGPU through SwiftShader (the shared-link test asks for WASM instead).
const QUERY = '?modelPack=tiny';

// The scripted model's answer (how many segments, which candidates differ in support) follows
// the passages it is handed. Tests about Stop and the critique weights, not about retrieval,
// pin the fused order without the cross-encoder's re-rank, which re-orders the sample passages
// so that "How do bees make honey?" is answered in one segment (nothing left to stop).
const FUSED_ORDER = `${QUERY}&rerank=0`;

// These tests are about the paper's search (a tree with alternatives to re-rank, an answer long
// enough to stop): they run on its settings, not on today's faster defaults (levers: docs/benchmarks-answer.md).
const app = useApp(QUERY, { settings: { decode: PAPER_DECODE_SETTINGS } });
const open = app.open;

async function ask(page: Page, question: string, until: 'done' | 'running' = 'done'): Promise<void> {
  const shown = await askAndSettle(page, question, { until: until === 'running' ? 'running' : 'settled' });
  if (until === 'running') return;
  // On failure, the page's own words say why.
  expect(shown).toMatch(/^done: /);
}

const chosenIds = (page: Page) =>
  page.$$eval('[data-testid=segment]', (els) => els.map((e) => e.getAttribute('data-candidate-id')));
const calls = async (page: Page) => Number(await page.getByTestId('generator-calls').innerText());
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(OUTPUT_DIR, `app-${name}.png`), fullPage: true });

describe('answer page', () => {
  it('loads the sample corpus, answers with cited segments and all three badges', async () => {
    const { page, errors } = await open();
    expect(await page.getByTestId('doc').count()).toBe(5);
    await expect.poll(() => page.getByTestId('doc').first().innerText()).toMatch(/\d+ passages?/);
    await ask(page, 'Why does the sea have tides?');

    const segments = page.getByTestId('segment');
    expect(await segments.count()).toBeGreaterThan(0);
    const first = segments.first();
    expect(await first.getByTestId('citation').innerText()).toMatch(/Why the Sea Has Tides( › [^·]+| · passage \d+)/);
    for (const kind of ['isrel', 'issup', 'isuse']) {
      expect(await first.locator(`[data-badge=${kind}]`).count()).toBe(1);
    }
    expect(await first.locator('[data-badge=issup]').innerText()).toMatch(
      /Fully supported|Partially supported|No support/,
    );
    expect(await first.locator('[data-badge=isuse]').innerText()).toMatch(/Utility [1-5]\/5/);

    // The probability shows on keyboard focus, not only on hover.
    await first.locator('[data-badge=isrel]').focus();
    const tip = first.locator('[data-badge=isrel] [role=tooltip]');
    expect(await tip.isVisible()).toBe(true);
    expect(await tip.innerText()).toMatch(/Relevant \d+%/);
    await shot(page, 'answer');

    // The citation opens the passage with its supporting sentence highlighted.
    await first.getByTestId('citation').click();
    const dialog = page.getByTestId('passage-dialog');
    await dialog.waitFor();
    const segmentText = (await first.locator('.segment-text').innerText()).trim();
    const marked = await dialog.getByTestId('passage-text').locator('mark').innerText();
    expect(marked.length).toBeGreaterThan(0);
    expect(segmentText).toContain(marked.trim().split(' ').slice(-3).join(' '));
    await shot(page, 'passage');
    await page.keyboard.press('Escape');

    // "Why this segment" lists every candidate of the step with scores and beam survival.
    await first.getByRole('button', { name: /Why this segment/ }).click();
    const rows = first.getByTestId('why-row');
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    expect(await first.getByTestId('why-panel').innerText()).toMatch(/kept/);
    await page.getByTestId('beam-tree').locator('summary').click();
    await shot(page, 'why');
    expect(errors).toEqual([]);
  });

  it('re-ranks on an ISSUP weight change without any generator call and marks what changed', async () => {
    const { page, errors } = await open();
    await page.getByLabel('Evaluator models').check();
    await ask(page, 'What did Gutenberg print?');
    // All three evaluator models ran on WebGPU, none fell back.
    const evaluatorStatus = page.locator('[data-worker=evaluator]');
    expect(await evaluatorStatus.getAttribute('data-device')).toBe('webgpu');
    expect(await evaluatorStatus.innerText()).not.toMatch(/fell back/);
    const before = await chosenIds(page);
    const callsBefore = await calls(page);
    expect(callsBefore).toBeGreaterThan(0);

    await page.getByTestId('w-sup').fill('0');
    await expect.poll(() => chosenIds(page)).not.toEqual(before);
    const changed = page.locator('[data-testid=segment][data-changed=true]');
    expect(await changed.count()).toBeGreaterThan(0);
    expect(await changed.first().innerText()).toContain('changed by the new weights');
    expect(await calls(page)).toBe(callsBefore);
    expect(await page.getByTestId('rerank-time').innerText()).toMatch(/Re-ranked in .* ms, no model call/);
    await shot(page, 'reranked');

    await page.getByTestId('w-sup').fill('1');
    expect(await chosenIds(page)).toEqual(before);
    expect(await calls(page)).toBe(callsBefore);

    // A decode setting is different: the page offers a re-run instead of pretending.
    await page.getByTestId('beam').fill('3');
    await page.getByTestId('rerun-offer').waitFor();
    expect(await page.getByTestId('rerun-offer').innerText()).toMatch(/beam width/);
    expect(await calls(page)).toBe(callsBefore);
    expect(errors).toEqual([]);
  });

  it('keeps answering when WebGPU breaks in the evaluator, and the status panel says which models moved to WASM and why', async () => {
    const { page, errors } = await open();
    await expect.poll(() => page.locator('[data-worker=evaluator]').getAttribute('data-device')).toBe('webgpu');
    // The driver failure the app once met on SwiftShader, injected into the evaluator's worker.
    await breakEvaluatorWebGpu(page);
    await page.getByLabel('Evaluator models').check();
    await ask(page, 'What did Gutenberg print?');
    expect(await page.getByTestId('segment').first().locator('[data-badge=issup]').innerText()).toMatch(
      /supported|No support/,
    );
    const status = page.locator('[data-worker=evaluator]');
    expect(await status.getAttribute('data-state')).toBe('ready');
    expect(await status.getAttribute('data-device')).toMatch(/wasm/);
    expect(await status.innerText()).toMatch(/NLI fell back to WASM: .*injected by the test/);
    await shot(page, 'evaluator-fallback');
    expect(errors).toEqual([]);
  });

  it("with the generator's own critique tokens, the ISSUP weight changes the answer; the RAGAS figures are kept, marked, and no model is called", async () => {
    const { page, errors } = await open(undefined, FUSED_ORDER);
    expect(await page.getByLabel("Generator's own tokens").isChecked()).toBe(true);
    await ask(page, 'Why does the sea have tides?');
    // The metrics measure the finished answer by themselves; let them finish so every call is counted.
    const metrics = page.getByTestId('answer-metrics');
    await page.waitForSelector('[data-testid=answer-metrics][data-status=done]', { timeout: 120_000 });
    expect(await metrics.getAttribute('data-stale')).toBe('false');
    const metricsCalls = Number(await page.getByTestId('metrics-calls').innerText());
    expect(metricsCalls).toBeGreaterThan(0);
    const before = await chosenIds(page);
    const callsBefore = await calls(page);
    // The generator graded its candidates' support differently, so the weight has something to trade.
    const first = page.getByTestId('segment').first();
    await first.getByRole('button', { name: /Why this segment/ }).click();
    const supports = await first.locator('[data-testid=why-row] td:nth-child(5)').allInnerTexts(); // the ISSUP column
    expect(new Set(supports).size).toBeGreaterThan(1);

    await page.getByTestId('w-sup').fill('0');
    await expect.poll(() => chosenIds(page)).not.toEqual(before);
    expect(await calls(page)).toBe(callsBefore);
    expect(await page.getByTestId('rerank-time').innerText()).toMatch(/no model call/);
    // The shown figures are the earlier answer's, said so, and not recomputed.
    expect(await metrics.getAttribute('data-stale')).toBe('true');
    expect(await page.getByTestId('metrics-stale').innerText()).toMatch(/before the weights changed/);
    expect(await page.getByTestId('metrics-calls').innerText()).toBe(String(metricsCalls));
    await shot(page, 'metrics-stale');

    // Measuring the answer now shown is the user's call, and it does call the models.
    await metrics.getByRole('button', { name: 'Measure this answer' }).click();
    await page.waitForSelector('[data-testid=answer-metrics][data-status=done][data-stale=false]', {
      timeout: 120_000,
    });
    expect(Number(await page.getByTestId('metrics-calls').innerText())).toBeGreaterThan(metricsCalls);
    expect(await calls(page)).toBe(callsBefore);
    expect(errors).toEqual([]);
  });

  it('shows a document with <script> and <img onerror> as text, and nothing executes', async () => {
    const { page, errors } = await open();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const evil =
      'The apple king of paris grows banana trees by the river. <script>window.__pwned = "script"; alert(1)</script> ' +
      'The king waters the banana trees with river water. <img src=x onerror="window.__pwned = \'img\'; alert(2)">';
    await page.locator('details.paste summary').click();
    await page.getByTestId('paste-title').fill('<img src=y onerror="window.__pwned=\'title\'">Banana king');
    await page.getByTestId('paste-text').fill(evil);
    await page.getByTestId('paste-add').click();
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 60_000 }).toBe(6);

    const dir = mkdtempSync(join(tmpdir(), 'xss-'));
    const file = join(dir, 'apple-notes.md');
    writeFileSync(
      file,
      `# Apple notes\n\nThe queen of london eats apple bread. <img src=z onerror="window.__pwned='md'">\n\n<script>window.__pwned='md-script'</script>\n`,
    );
    await page.getByTestId('file-input').setInputFiles(file);
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 60_000 }).toBe(7);

    await ask(page, 'Which king grows banana trees by the river in paris?');
    await page.getByTestId('segment').first().getByTestId('citation').click();
    const text = await page.getByTestId('passage-text').innerText();
    expect(text).toContain('<script>');
    expect(text).toContain('onerror');
    await shot(page, 'untrusted-text');
    await page.keyboard.press('Escape');

    expect(await page.getByText('<img src=y onerror', { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await page.locator('#root img, #root script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('adds a dropped document, refuses an unreadable one with a reason, and removes', async () => {
    const { page, errors } = await open();
    const drop = async (files: { name: string; type: string; body: string | number[] }[]) => {
      const dt = await page.evaluateHandle((fs) => {
        const t = new DataTransfer();
        for (const f of fs)
          t.items.add(
            new File([typeof f.body === 'string' ? f.body : new Uint8Array(f.body)], f.name, { type: f.type }),
          );
        return t;
      }, files);
      await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: dt });
    };
    await drop([
      {
        name: 'river-notes.txt',
        type: 'text/plain',
        body: 'The river king of paris grows apple trees. The river is cold in winter.',
      },
      {
        name: 'apple-report.pdf',
        type: 'application/pdf',
        body: [...tinyPdf([['The apple harvest in france was good this year.']])],
      },
    ]);
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 60_000 }).toBe(7);
    expect(await page.getByTestId('doc-list').innerText()).toMatch(/river-notes|River notes/i);
    expect(await page.getByTestId('doc-list').innerText()).toMatch(/apple-report|Apple report/i);

    await drop([
      { name: 'photo.png', type: 'image/png', body: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] },
    ]);
    const report = page.getByTestId('batch-report').filter({ hasText: 'photo.png' });
    await report.waitFor({ timeout: 60_000 });
    expect(await report.innerText()).toMatch(/0 added, 1 refused[\s\S]*photo\.png: .+/);
    expect(await page.getByTestId('doc').count()).toBe(7);
    await report.getByRole('button', { name: 'Dismiss this report' }).click();
    expect(await report.count()).toBe(0);

    const added = page.getByTestId('doc').filter({ hasText: /river/i });
    await added.getByRole('button', { name: /^Remove/ }).click();
    await expect.poll(() => page.getByTestId('doc').count()).toBe(6);
    await shot(page, 'library');
    expect(errors).toEqual([]);
  });

  it('keeps the library and settings over a reload', async () => {
    const { page } = await open();
    await page.getByRole('button', { name: 'Remove How Honeybee Colonies Work' }).click();
    await expect.poll(() => page.getByTestId('doc').count()).toBe(4);
    await page.getByTestId('w-rel').fill('2.5');
    await page.getByTestId('hard').check();
    await page.getByTestId('theme').selectOption('dark');
    await page.getByTestId('model').selectOption('qwen2.5-0.5b');

    await page.reload();
    await page.getByTestId('doc').first().waitFor();
    await expect.poll(() => page.getByTestId('doc').count()).toBe(4);
    expect(await page.getByTestId('doc-list').innerText()).not.toContain('Honeybee');
    expect(await page.getByTestId('w-rel').inputValue()).toBe('2.5');
    expect(await page.getByTestId('hard').isChecked()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    // The pinned theme really paints dark, whatever the system prefers.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(20, 22, 26)');
    expect(await page.getByTestId('model').inputValue()).toBe('qwen2.5-0.5b');
    await ask(page, 'Why does the sea have tides?');
    expect(await page.locator('[data-worker=generator]').innerText()).toContain('Qwen2.5-0.5B-Instruct');
    await shot(page, 'dark-theme');
  });

  it('a shared link carries the question and the settings, and answers it on open', async () => {
    // The one test that runs the evaluator on WASM, as a link can ask.
    const { page } = await open(
      app.browser,
      `${QUERY}&evaluatorDevice=wasm&q=${encodeURIComponent('Why does the sea have tides?')}&wsup=2&beam=1`,
    );
    await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 120_000 });
    expect(await page.locator('[data-worker=evaluator]').getAttribute('data-device')).toBe('wasm');
    expect(await page.locator('[data-worker=evaluator]').innerText()).toMatch(
      /on WASM \(WASM was chosen in the settings/,
    );
    expect(await page.locator('#question').inputValue()).toBe('Why does the sea have tides?');
    expect(await page.getByTestId('w-sup').inputValue()).toBe('2');
    expect(await page.getByTestId('beam').inputValue()).toBe('1');
    expect(await page.getByTestId('segment').count()).toBeGreaterThan(0);

    // Asking something else updates the address bar, so copying it shares the new answer. In the
    // linked question's thread, a question with a subject of its own is searched as typed: the
    // address carries it alone, and no "searched as" chip is shown.
    await ask(page, 'How do bees make honey?');
    const params = new URL(page.url()).searchParams;
    expect(await page.locator('[data-testid=turn]').nth(1).getByTestId('rewrite-chip').count()).toBe(0);
    expect(params.get('q')).toBe('How do bees make honey?');
    expect(params.has('sq')).toBe(false);
    expect(params.get('wsup')).toBe('2');
    expect(params.get('modelPack')).toBe('tiny');
  });

  it('stop during an answer keeps what was finished and the page stays usable', async () => {
    const { page, errors } = await open(undefined, FUSED_ORDER);
    await page.getByTestId('depth').fill('6');
    await ask(page, 'How do bees make honey?', 'running');
    // Wait for a finished segment while later ones are still being written.
    await page.getByTestId('segment').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=answer]').getAttribute('data-status')).toBe('running');
    await page.getByTestId('stop').click();
    await page.waitForSelector('[data-testid=answer][data-status=stopped]', { timeout: 60_000 });
    expect(await page.getByTestId('stopped').innerText()).toBe('Stopped. What was finished is shown above.');
    expect(await page.getByTestId('segment').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('segment').first().getByTestId('citation').count()).toBe(1);
    await shot(page, 'stopped');

    await ask(page, 'Why does the sea have tides?');
    expect(await page.getByTestId('segment').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('marks segments written without retrieval', async () => {
    const { page } = await open();
    await page.locator('#mode').selectOption('never');
    await ask(page, 'Why does the sea have tides?');
    const first = page.getByTestId('segment').first();
    expect(await first.getByTestId('no-retrieval').innerText()).toBe('written without retrieval');
    expect(await first.getByTestId('citation').count()).toBe(0);
    expect(await first.locator('[data-badge=isuse]').count()).toBe(1);
  });

  it('works by keyboard alone: ask, open a citation, and move a weight', async () => {
    const { page } = await open();
    await page.locator('#question').focus();
    await page.keyboard.type('Why does the sea have tides?');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 120_000 });
    const citation = page.getByTestId('citation').first();
    await citation.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('passage-dialog').getByTestId('passage-text').locator('mark').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('w-sup').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByTestId('w-sup').inputValue()).toBe('1.1');
  });
});

describe('corrective retrieval (Self-CRAG) on the answer page', () => {
  it('shows the action, the rewritten query and the knowledge strips kept and dropped', async () => {
    const { page, errors } = await open();
    await page.getByTestId('corrective').check();
    // Lower 0: no retrieval is Incorrect, so the retrieved passages are refined into strips.
    // Upper 1: none is Correct either, so the step is Ambiguous and also searches with a rewrite.
    await page.getByTestId('crag-lower').fill('0');
    await page.getByTestId('crag-upper').fill('1');
    await ask(page, 'Why does the sea have tides?');

    const first = page.getByTestId('segment').first();
    await first.getByRole('button', { name: /Why this segment/ }).click();
    const details = first.getByTestId('correction-details');
    expect(await details.getByTestId('correction-action').innerText()).toMatch(/^Action: Ambiguous/);
    expect((await details.getByTestId('correction-rewrite').innerText()).trim()).toMatch(
      /^Searched again with the rewritten query: .+/,
    );
    const strips = details.getByTestId('strip');
    const total = await strips.count();
    expect(total).toBeGreaterThan(0);
    const kept = await details.locator('[data-testid=strip][data-kept=true]').count();
    expect(await details.locator('caption').innerText()).toBe(
      `Knowledge strips: ${kept} kept, ${total - kept} dropped`,
    );
    for (const verdict of await strips.locator('td:last-child').allInnerTexts())
      expect(verdict).toMatch(/^(kept|dropped: .+)$/);
    // The cited passage is what refinement kept: its text is made of kept strips only.
    const citation = first.getByTestId('citation');
    if ((await citation.count()) > 0) {
      const keptTexts = await details.locator('[data-testid=strip][data-kept=true] td:first-child').allInnerTexts();
      await citation.click();
      const passageText = await page.getByTestId('passage-text').innerText();
      for (const line of passageText.split('\n').filter((l) => l.trim())) {
        expect(keptTexts.some((t) => t.includes(line.trim()))).toBe(true);
      }
      await page.keyboard.press('Escape');
    }
    await shot(page, 'self-crag-why');

    // The settings persist, a contradictory pair is refused with the reason, and a change offers a re-run.
    await page.getByTestId('crag-upper').fill('0.3');
    await page.getByTestId('crag-lower').fill('0.6');
    expect(await page.getByTestId('crag-problem').innerText()).toMatch(
      /lower threshold \(0.6\) must not be above the upper threshold \(0.3\)/,
    );
    expect(await page.getByTestId('crag-lower').inputValue()).toBe('0');
    expect(await page.getByTestId('rerun-offer').innerText()).toMatch(/CRAG upper threshold/);
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('selfrag.settings') ?? '{}').settings?.crag,
    );
    expect(stored).toMatchObject({ upper: 0.3, lower: 0, externalEnabled: false });
    expect(errors).toEqual([]);
  });

  it('says plainly when Self-CRAG abstains for lack of evidence', async () => {
    const { page, errors } = await open();
    await page.getByTestId('corrective').check();
    await page.getByTestId('crag-noevidence-abstain').check();
    // Every score is below a lower threshold of 1: every retrieval is Incorrect, and nothing is usable.
    await page.getByTestId('crag-upper').fill('1');
    await page.getByTestId('crag-lower').fill('1');
    await ask(page, 'Why does the sea have tides?');
    expect(await page.getByTestId('abstained').innerText()).toMatch(
      /^No answer: corrective retrieval \(Self-CRAG\) found no reliable evidence/,
    );
    expect(await page.getByTestId('abstained-step').count()).toBe(1);
    expect(await page.getByTestId('citation').count()).toBe(0);
    await shot(page, 'self-crag-abstained');
    expect(errors).toEqual([]);
  });

  it('switches the vector index on reload and still answers', async () => {
    const { page, errors } = await open();
    await page.getByText('Advanced').click();
    await page.getByTestId('index-kind').selectOption('voy');
    expect(await page.getByTestId('index-reload').innerText()).toMatch(/Reload the page to switch to Voy/);
    await page.getByTestId('index-reload').getByRole('button', { name: 'Reload now' }).click();
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 60_000 }).toMatch(/voy k-d tree/);
    expect(await page.getByTestId('index-reload').count()).toBe(0);
    await ask(page, 'Why does the sea have tides?');
    expect(await page.getByTestId('citation').first().innerText()).toMatch(/Why the Sea Has Tides/);
    expect(errors).toEqual([]);
  });
});

describe('without WebGPU', () => {
  let plain: Browser;
  beforeAll(async () => {
    plain = await launchBrowser({ webgpu: false });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('explains why and offers evidence-only mode, which shows passages with relevance', async () => {
    const { page, errors } = await open(plain);
    const notice = page.getByTestId('no-webgpu');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(/WebGPU/);
    await shot(page, 'no-webgpu');
    await page.getByTestId('use-evidence-only').click();
    await page.getByTestId('evidence-only').waitFor();
    await ask(page, 'Why does the sea have tides?');
    const passages = page.getByTestId('evidence-passage');
    expect(await passages.count()).toBeGreaterThan(0);
    expect(await passages.first().innerText()).toMatch(/Tides/);
    expect(await passages.first().locator('[data-badge=isrel]').count()).toBe(1);
    expect(await calls(page)).toBe(0);
    await shot(page, 'evidence-only');
    expect(errors).toEqual([]);
  });

  it('asking about an identifier that appears in one passage finds that passage first, and says how it was found', async () => {
    const { page, errors } = await open(plain);
    await page.getByTestId('use-evidence-only').click();
    await page.getByTestId('evidence-only').waitFor();
    const before = await page.getByTestId('doc').count();
    // Notes worded alike: only the code tells them apart, and the tiny embedder cannot read codes.
    const notes = [
      [
        'Error notes A',
        'Error ERR_QX_7731 is raised by the sync agent when the disk is full. To fix it, free some space.',
      ],
      [
        'Error notes B',
        'Error ERR_QX_7713 is raised by the sync agent when the disk is full. To fix it, free some space.',
      ],
      [
        'Error notes C',
        'Error ERR_XQ_1377 is raised by the sync agent when the disk is full. To fix it, free some space.',
      ],
    ];
    for (const [i, [title, text]] of notes.entries()) {
      if ((await page.locator('details.paste').getAttribute('open')) === null)
        await page.locator('details.paste summary').click();
      await page.getByTestId('paste-title').fill(title!);
      await page.getByTestId('paste-text').fill(text!);
      await page.getByTestId('paste-add').click();
      await expect.poll(() => page.getByTestId('doc').count(), { timeout: 60_000 }).toBe(before + i + 1);
    }
    await ask(page, 'How do I fix ERR_QX_7713?');
    const first = page.getByTestId('evidence-passage').first();
    expect(await first.innerText()).toContain('ERR_QX_7713');
    expect(await first.getByTestId('passage-ranks').getAttribute('data-lexical-rank')).toBe('1');
    expect(await first.getByTestId('passage-ranks').innerText()).toMatch(
      /^words #1 · meaning (#\d+|–) · re-rank \d\.\d\d$/,
    );
    await shot(page, 'identifier-first');
    expect(errors).toEqual([]);
  });
});

describe('embedded in an iframe', () => {
  let parent: Served;
  let stranger: Served;
  let own: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'embed-'));

  beforeAll(async () => {
    writeEmbedHost(dir, 'q1');
    parent = await serveDir(dir);
    stranger = await serveDir(dir);
    own = await launchBrowser();
    // The site owner's allow-list, beside the page.
    writeFileSync(join(E2E_DIR, 'embed.json'), JSON.stringify({ allowedOrigins: [new URL(parent.url).origin] }));
  });
  afterAll(async () => {
    rmSync(join(E2E_DIR, 'embed.json'), { force: true });
    await own?.close();
    await parent?.close();
    await stranger?.close();
  });

  // `embedOrigin` in the URL is what an embedder controls: it must grant nothing.
  const appUrl = (claimed: string) => `${app.url}${QUERY}&embedOrigin=${encodeURIComponent(claimed)}`;

  it('answers an allowed origin and refuses an unknown one with the reason', async () => {
    const allowedOrigin = new URL(parent.url).origin;
    const context = await own.newContext();
    app.track(context);

    const host = await context.newPage();
    await host.goto(`${parent.url}?app=${encodeURIComponent(appUrl(allowedOrigin))}`);
    await host.waitForFunction(
      () =>
        (window as unknown as { replies: { data: { type: string } }[] }).replies.some((r) =>
          ['ready', 'pong'].includes(r.data.type),
        ),
      null,
      { timeout: 60_000 },
    );
    await host.evaluate(() =>
      (window as unknown as { askApp(q: string): void }).askApp('Why does the sea have tides?'),
    );
    const answer = await host.waitForFunction(
      () =>
        (window as unknown as { replies: { data: { type: string } }[] }).replies.find(
          (r) => r.data.type === 'answer' || r.data.type === 'error',
        ),
      null,
      { timeout: 120_000 },
    );
    const reply = (await answer.jsonValue()) as unknown as {
      origin: string;
      data: { id: string; segments: { text: string; citation: unknown }[] };
    };
    expect(reply.data.id).toBe('q1');
    expect(reply.data.segments.length).toBeGreaterThan(0);
    expect(reply.data.segments[0]!.citation).toBeTruthy();
    expect(reply.origin).toBe(new URL(app.url).origin);

    // Same app, same allow-list, embedded by another origin: its messages are refused (with the reason) and logged.
    const other = await context.newPage();
    const logs: string[] = [];
    other.on('console', (m) => logs.push(m.text()));
    await other.goto(`${stranger.url}?app=${encodeURIComponent(appUrl(new URL(stranger.url).origin))}`);
    await other.frameLocator('iframe').getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await other.evaluate(() =>
      (window as unknown as { askApp(q: string): void }).askApp('Why does the sea have tides?'),
    );
    await expect
      .poll(() => logs.some((l) => l.includes('[embed] refused') && l.includes(new URL(stranger.url).origin)), {
        timeout: 30_000,
      })
      .toBe(true);
    const frame = other.frames().find((f) => f.url().startsWith(app.url))!;
    // The allowed host's question is a thread of its own, kept and re-opened here (same app, same
    // storage); the stranger's question added no turn to it and started no run.
    expect(await frame.locator('[data-testid=turn]').count()).toBeLessThanOrEqual(1);
    expect(await frame.locator('[data-testid=answer][data-status=running]').count()).toBe(0);
    // Its pings and its question were refused: the stranger got refusals only, not even 'ready'.
    const types = await other.evaluate(() =>
      (window as unknown as { replies: { data: { type: string } }[] }).replies.map((r) => r.data.type),
    );
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['refused']));
  });
});
