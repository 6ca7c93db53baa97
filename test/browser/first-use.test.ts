// First use, second pass (issue 38): what a phone shows while documents go in, an answer mode
// that lasts, a first visit on a network that cannot reach the model hub, a status panel that
// agrees with the page, the theme control's name on a phone, and why "Why this segment" chose
// the segment it shows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paperSearch, useApp } from './app-page';
import { askAndSettle } from './ask';
import { OUTPUT_DIR, launchBrowser } from './harness';

const TINY = '?modelPack=tiny';
const app = useApp(TINY);
const dir = mkdtempSync(join(tmpdir(), 'first-use-'));
// A browser without WebGPU, as most phones and many laptops are.
let plain: Browser;
beforeAll(async () => {
  plain = await launchBrowser({ webgpu: false });
});
afterAll(async () => {
  await plain?.close();
  rmSync(dir, { recursive: true, force: true });
});

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1400, height: 1000 } };
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(OUTPUT_DIR, `first-use-${name}.png`), fullPage: true });

/** A context whose network reaches only this machine: the model hub (and everything else outside) cannot be reached. */
async function offline(browser: Browser, options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  app.track(context);
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort('internetdisconnected'));
  return context;
}

async function open(context: BrowserContext, query = ''): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(app.url + query);
  await page.locator('[data-testid=doc]').first().waitFor({ state: 'attached', timeout: 120_000 });
  return { page, errors };
}

/** Markdown files on disk, as a visitor's picker gives them. */
function notes(count: number, prefix: string): string[] {
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `${prefix}-${String(i).padStart(2, '0')}.md`);
    writeFileSync(
      path,
      `# ${prefix} note ${i}\n\nThe ${prefix} note ${i} tells how lantern ${i} on the quay is trimmed at dusk.\n\n` +
        `A second paragraph of note ${i} says the wick is cut square and the glass wiped with newspaper.\n`,
    );
    return path;
  });
}

async function ask(page: Page, question: string): Promise<void> {
  // Waits for the run this click started, not for a view already on screen (test/browser/ask.ts).
  await askAndSettle(page, question);
  await page.waitForSelector(
    ':is([data-testid=answer], [data-testid=evidence]):not([data-status=running]):not([aria-busy=true])',
    { timeout: 120_000 },
  );
}

const evaluatorFailed = (page: Page) =>
  expect
    .poll(() => page.locator('[data-worker=evaluator]').getAttribute('data-state'), { timeout: 120_000 })
    .toBe('error');

/** Whether the element lies wholly inside the first screen (no scrolling). */
async function onFirstScreen(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  return !!box && box.y >= 0 && box.y + box.height <= page.viewportSize()!.height;
}

describe('a phone adding documents', () => {
  it('shows the add buttons on the first screen and keeps the library open while a batch goes in and its report is read', async () => {
    const context = await offline(plain, PHONE);
    const { page, errors } = await open(context);
    await evaluatorFailed(page);
    await page.getByRole('button', { name: 'Choose files…' }).waitFor();
    await page.screenshot({ path: join(OUTPUT_DIR, 'first-use-phone-first.png') });
    expect(await onFirstScreen(page, 'button:text-is("Choose files…")')).toBe(true);
    expect(await onFirstScreen(page, 'button:text-is("Choose a folder…")')).toBe(true);

    // Every time the library folds during the batch is counted.
    await page.evaluate(() => {
      const d = document.querySelector<HTMLDetailsElement>('[data-testid=drawer-library]')!;
      const w = window as unknown as { folded: number };
      w.folded = 0;
      new MutationObserver(() => {
        if (!d.open) w.folded++;
      }).observe(d, { attributes: true, attributeFilter: ['open'] });
    });
    const files = notes(12, 'quay');
    await page.getByTestId('file-input').setInputFiles(files);
    // The first of the visitor's own documents is stored: the batch goes on, in sight.
    await page.getByTestId('doc').filter({ hasText: 'quay note' }).first().waitFor({ state: 'attached' });
    const report = page.getByTestId('batch-report');
    await report.waitFor({ state: 'attached', timeout: 300_000 });
    expect(await page.evaluate(() => (window as unknown as { folded: number }).folded)).toBe(0);
    expect(await report.isVisible()).toBe(true);
    expect(await page.getByTestId('batch-summary').innerText()).toBe('12 added, 0 refused');
    await report.scrollIntoViewIfNeeded();
    await shot(page, 'phone-report');
    // Read and dismissed, the library stays where the visitor is.
    await page.getByRole('button', { name: 'Dismiss this report' }).click();
    expect(await page.getByTestId('drawer-library').getAttribute('open')).not.toBeNull();
    expect(errors).toEqual([]);
  });
});

describe('evidence-only mode', () => {
  it('lasts across a reload like every other setting, until the visitor leaves it', async () => {
    const context = await plain.newContext(DESKTOP);
    app.track(context);
    const { page, errors } = await open(context, TINY);
    await page.getByTestId('use-evidence-only').click();
    await page.getByTestId('evidence-only').waitFor();
    await page.reload();
    await page.locator('[data-testid=doc]').first().waitFor({ timeout: 120_000 });
    await page.getByTestId('evidence-only').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('ask').innerText()).toBe('Find passages');
    await ask(page, 'How long should sourdough rise?');
    expect(await page.getByTestId('evidence').getAttribute('data-status')).toBe('done');
    // No language model was loaded for it.
    expect(await page.locator('[data-worker=generator]').getAttribute('data-state')).not.toMatch(/loading|ready/);
    expect(await page.getByTestId('generator-calls').innerText()).toBe('0');

    // Left by the visitor (WebGPU or not: llama.cpp writes without it), and that lasts too.
    await page.getByTestId('leave-evidence-only').click();
    await expect.poll(() => page.getByTestId('evidence-only').count()).toBe(0);
    await page.reload();
    await page.locator('[data-testid=doc]').first().waitFor({ timeout: 120_000 });
    await page.getByTestId('no-webgpu').waitFor();
    expect(await page.getByTestId('evidence-only').count()).toBe(0);
    expect(await page.getByTestId('ask').innerText()).toBe('Ask');
    expect(errors).toEqual([]);
  });
});

describe('the viewer in evidence-only mode', () => {
  it('says the passage is marked against the question, since no segment was written', async () => {
    const context = await plain.newContext(DESKTOP);
    app.track(context);
    const { page, errors } = await open(context, TINY);
    await page.getByTestId('use-evidence-only').click();
    await page.getByTestId('evidence-only').waitFor();
    await ask(page, 'How long should sourdough rise?');
    await page.getByTestId('evidence-open-source').first().click();
    const dialog = page.getByTestId('passage-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).not.toMatch(/segment/);
    expect(await dialog.innerText()).toMatch(/shares the most words with the question/);
    expect(errors).toEqual([]);
  });
});

describe('a first visit on a network that cannot reach the model hub', () => {
  it('says once, in the page, what cannot be downloaded and what still works, and shows passages as text', async () => {
    const context = await offline(plain, DESKTOP);
    const { page, errors } = await open(context);
    await evaluatorFailed(page);
    const notice = page.getByTestId('models-unreachable');
    await notice.waitFor();
    const said = await notice.innerText();
    expect(said).toMatch(/cannot be reached/);
    expect(said).toMatch(/embedding model/);
    expect(said).toMatch(/language model/);
    expect(said).toMatch(/by their words/);
    // Nothing above the answer promises what this network cannot give.
    const notices = page.locator('.notices');
    expect(await notices.innerText()).not.toMatch(/downloaded once|smaller model/);
    expect(await page.getByTestId('no-webgpu').count()).toBe(0);

    await ask(page, 'How long should sourdough rise?');
    const evidence = page.getByTestId('evidence');
    expect(await evidence.getAttribute('data-status')).toBe('done');
    // Said once: the failed download of the language model is the same news.
    const text = await notices.innerText();
    expect(text.match(/cannot be reached/g)?.length).toBe(1);
    expect(text).not.toMatch(/could not be downloaded|smaller model/);
    // Passages read as text, not as Markdown source; a search stage that did not run is said in words.
    const passages = await page.locator('[data-testid=evidence-passage] .passage-text').allInnerTexts();
    expect(passages.length).toBeGreaterThan(0);
    for (const p of passages) expect(p).not.toMatch(/^\s*#{1,6}\s/m);
    expect(await evidence.innerText()).not.toMatch(/meaning –|re-rank –/);
    expect(await evidence.innerText()).toMatch(/found by (their|its) words/i);
    await shot(page, 'unreachable-desktop');
    expect(errors).toEqual([]);
  });

  it('says it on a phone’s first screen too', async () => {
    const context = await offline(plain, PHONE);
    const { page } = await open(context);
    await evaluatorFailed(page);
    await page.getByTestId('models-unreachable').waitFor();
    expect(await onFirstScreen(page, '[data-testid=models-unreachable]')).toBe(true);
    expect(await onFirstScreen(page, 'button:text-is("Choose files…")')).toBe(true);
    await shot(page, 'unreachable-phone');
  });
});

describe('the status panel', () => {
  it('agrees with the page: no offer of the mode it is in, no device for a model that failed, no way forward that cannot help', async () => {
    const context = await offline(plain, DESKTOP);
    const { page } = await open(context);
    await evaluatorFailed(page);
    const evaluator = page.locator('[data-worker=evaluator]');
    expect(await evaluator.innerText()).not.toMatch(/running on|failed on/i);
    await ask(page, 'How long should sourdough rise?');
    const generator = page.locator('[data-worker=generator]');
    await expect.poll(() => generator.getAttribute('data-state'), { timeout: 60_000 }).toBe('error');
    // The page shows passages: the panel does not offer that mode again, nor a smaller download.
    await page.getByTestId('evidence').waitFor();
    expect(await page.getByTestId('model-evidence-only').count()).toBe(0);
    expect(await page.getByTestId('smaller-model').count()).toBe(0);
    expect(await generator.innerText()).not.toMatch(/smaller model/);
  });

  it('shows the CPU model picker, not the WebGPU one, where llama.cpp writes', async () => {
    const { page } = await app.open();
    expect(await page.getByTestId('model').isVisible()).toBe(true);
    await page.getByTestId('engine').selectOption('wllama');
    await page.getByTestId('gguf').waitFor();
    expect(await page.getByTestId('model').count()).toBe(0);
    expect(await page.getByTestId('custom-model').count()).toBe(0);
    // The temperature is the engine's too.
    expect(await page.getByTestId('temperature').isVisible()).toBe(true);
  });

  it('counts the vectors as a batch adds them, not only when it ends', async () => {
    const { page, errors } = await app.open();
    const line = page.locator('[data-worker=library]');
    const vectors = async () =>
      Number(/: ([\d,]+) passages?/.exec(await line.innerText())?.[1]?.replace(/,/g, '') ?? Number.NaN);
    await expect.poll(() => page.getByTestId('doc-pending').count(), { timeout: 120_000 }).toBe(0);
    await expect.poll(vectors, { timeout: 60_000 }).toBeGreaterThan(0);
    const before = await vectors();
    // Every count the panel shows, as it is rendered, until the batch's report appears (a timer would
    // miss them on a fast machine, where the whole batch goes in between two samples).
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[]; watching: MutationObserver };
      w.seen = [];
      w.watching = new MutationObserver(() => {
        if (document.querySelector('[data-testid=batch-report]')) return w.watching.disconnect();
        w.seen.push(document.querySelector('[data-worker=library]')?.textContent ?? '');
      });
      w.watching.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByTestId('file-input').setInputFiles(notes(80, 'count'));
    await page.getByTestId('batch-report').waitFor({ timeout: 300_000 });
    const during = (await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).map((t) =>
      Number(/: ([\d,]+) passages?/.exec(t)?.[1]?.replace(/,/g, '') ?? Number.NaN),
    );
    await expect.poll(vectors).toBeGreaterThan(before);
    const after = await vectors();
    console.log(`[vectors] before ${before}, during the batch ${[...new Set(during)].join(' → ')}, after ${after}`);
    expect(during.some((n) => n > before && n < after)).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('smaller things', () => {
  it('the theme control’s name is visible on a phone', async () => {
    const context = await app.browser.newContext(PHONE);
    app.track(context);
    const { page } = await open(context, TINY);
    const label = page.locator('.theme-label');
    expect(await label.isVisible()).toBe(true);
    const box = (await label.boundingBox())!;
    expect(box.width).toBeGreaterThan(20);
    expect(await label.innerText()).toBe('Theme');
    // Still within the screen's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('"Why this segment" says why the chosen candidate was chosen, and why each other one was not', async () => {
    const context = await app.browser.newContext(DESKTOP);
    app.track(context);
    await paperSearch(context);
    const { page } = await open(context, TINY);
    await ask(page, 'How do bees make honey?');
    await page
      .getByRole('button', { name: /Why this segment/ })
      .first()
      .click();
    const panel = page.getByTestId('why-panel').first();
    const why = panel.getByTestId('why-chosen');
    expect(await why.innerText()).toMatch(/finished answer|path/);
    const rows = panel.getByTestId('why-row');
    expect(await rows.count()).toBeGreaterThan(1);
    for (const reason of await rows.locator('[data-testid=why-reason]').allInnerTexts()) expect(reason).not.toBe('');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT_DIR, 'first-use-why.png') });
  });
});
