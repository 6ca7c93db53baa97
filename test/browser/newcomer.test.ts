// The page a newcomer meets (issue 31): how to add documents and where to ask come first on a
// phone as on a desktop, the engine and model pickers are one step away, the question box is
// ready for the follow-up, and the sample documents are marked and cleared at once.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useApp } from './app-page';
import { askAndSettle } from './ask';
import { OUTPUT_DIR } from './harness';

const QUERY = '?modelPack=tiny';
const app = useApp(QUERY);

async function ask(page: Page, question: string): Promise<void> {
  await askAndSettle(page, question, { within: '[data-testid=turn].viewed' });
}

async function phone(): Promise<Page> {
  const context = await app.browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  app.track(context);
  const page = await context.newPage();
  await page.goto(app.url + QUERY);
  await page.locator('[data-testid=doc]').first().waitFor({ state: 'attached', timeout: 120_000 });
  return page;
}

/** Whether the element lies wholly inside the first screen (no scrolling). */
const onFirstScreen = async (page: Page, selector: string) => {
  const box = await page.locator(selector).first().boundingBox();
  const height = page.viewportSize()!.height;
  return !!box && box.y >= 0 && box.y + box.height <= height;
};

describe('the first screen of a first visit', () => {
  it('on a phone shows where to ask and how to add documents, with the models folded', async () => {
    const page = await phone();
    await page.getByRole('button', { name: 'Choose files…' }).waitFor();
    await page.screenshot({ path: join(OUTPUT_DIR, 'newcomer-phone-first.png') });
    expect(await onFirstScreen(page, '#question')).toBe(true);
    expect(await onFirstScreen(page, '[data-testid=ask]')).toBe(true);
    expect(await onFirstScreen(page, 'button:text-is("Choose files…")')).toBe(true);
    // Engine and model pickers are one tap away, under a heading that says how the model stands.
    expect(await page.getByTestId('engine').isVisible()).toBe(false);
    expect(await page.getByTestId('load-model').isVisible()).toBe(false);
    const models = page.locator('[data-testid=drawer-models] > summary');
    expect(await models.innerText()).toMatch(/^Models: language model loads with the first question/);
    await models.click();
    await page.getByTestId('engine').waitFor();
    expect(await page.locator('html').evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('on a desktop puts the status beside the answer, not above it, and the CPU model picker only where llama.cpp writes', async () => {
    const { page } = await app.open();
    const status = (await page.getByTestId('status').boundingBox())!;
    const question = (await page.locator('#question').boundingBox())!;
    expect(status.x).toBeGreaterThanOrEqual(question.x + question.width);
    // WebGPU works here, so WebLLM writes: no GGUF picker.
    expect(await page.getByTestId('engine').inputValue()).toBe('auto');
    expect(await page.getByTestId('gguf').count()).toBe(0);
    await page.getByTestId('engine').selectOption('wllama');
    await page.getByTestId('gguf').waitFor();
    // "not started" and its button are on two lines, never run together.
    const generator = page.locator('[data-worker=generator]');
    const state = (await generator.locator('strong').boundingBox())!;
    const button = (await page.getByTestId('load-model').boundingBox())!;
    expect(button.y).toBeGreaterThanOrEqual(state.y + state.height);
  });
});

describe('asking', () => {
  it('empties the question box for the follow-up and heads the answer with the question once', async () => {
    const { page, errors } = await app.open();
    await ask(page, 'How do bees make honey?');
    expect(await page.locator('#question').inputValue()).toBe('');
    const turn = page.locator('[data-testid=turn].viewed');
    expect(await turn.locator('.turn-question').innerText()).toMatch(/How do bees make honey\?/);
    expect(await turn.innerText()).not.toMatch(/Q: /);
    expect((await turn.innerText()).split('How do bees make honey?').length - 1).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('the sample documents', () => {
  it('are marked as samples and removed at once, leaving the visitor’s own', async () => {
    const { page } = await app.open();
    const docs = await page.getByTestId('doc').count();
    expect(docs).toBeGreaterThan(0);
    expect(await page.getByTestId('sample-tag').count()).toBe(docs);
    expect(await page.getByTestId('samples-note').innerText()).toMatch(new RegExp(`${docs} sample documents`));
    await page.locator('details.paste > summary').click();
    await page.getByTestId('paste-title').fill('My notes');
    await page
      .getByTestId('paste-text')
      .fill(
        'Kettles boil water faster at sea level than on a mountain? No: slower, since water boils at a higher temperature there.',
      );
    await page.getByTestId('paste-add').click();
    await expect.poll(() => page.getByTestId('doc').count()).toBe(docs + 1);
    // A batch with nothing refused is reported plainly, not in a red error box.
    await expect.poll(() => page.getByTestId('batch-summary').last().innerText()).toBe('1 added, 0 refused');
    expect(await page.getByTestId('batch-report').last().getAttribute('class')).not.toMatch(/\berror\b/);
    await page.getByTestId('remove-samples').click();
    await expect.poll(() => page.getByTestId('doc').allInnerTexts()).toEqual([expect.stringMatching(/My notes/)]);
    expect(await page.getByTestId('samples-note').count()).toBe(0);
    expect(await page.getByTestId('sample-tag').count()).toBe(0);
  });
});

describe('"Why this segment" on a phone', () => {
  it('shows one card per candidate, nothing scrolling sideways', async () => {
    const page = await phone();
    await ask(page, 'How do bees make honey?');
    await page
      .getByRole('button', { name: /Why this segment/ })
      .first()
      .click();
    const panel = page.getByTestId('why-panel').first();
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT_DIR, 'newcomer-phone-why.png') });
    expect(await panel.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    const rows = panel.getByTestId('why-row');
    expect(await rows.count()).toBeGreaterThan(1);
    for (const box of await rows.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.width).toBeLessThanOrEqual(390);
      expect(box.x).toBeGreaterThanOrEqual(0);
    }
    // Each value sits beside its column's name: the cells are laid out as two-column grids.
    const cell = rows.first().locator('td').nth(3);
    expect(await cell.evaluate((e) => getComputedStyle(e).display)).toBe('grid');
    expect(await cell.evaluate((e) => getComputedStyle(e, '::before').content)).toBe('"p(Relevant)"');
  });
});

describe('the batch report', () => {
  it('does not count a document already in the library as added, and stays across a reload until dismissed', async () => {
    const { page } = await app.open();
    const paste = async () => {
      if (!(await page.getByTestId('paste-title').isVisible())) await page.locator('details.paste > summary').click();
      await page.getByTestId('paste-title').fill('Harbour pilots');
      await page
        .getByTestId('paste-text')
        .fill('Harbour pilots board incoming ships at the fairway buoy and steer them to their berth.');
      await page.getByTestId('paste-add').click();
    };
    const docs = await page.getByTestId('doc').count();
    await paste();
    await expect.poll(() => page.getByTestId('batch-summary').last().innerText()).toBe('1 added, 0 refused');
    await paste();
    await expect.poll(() => page.getByTestId('batch-report').count()).toBe(2);
    expect(await page.getByTestId('batch-summary').last().innerText()).toBe(
      '0 added, 0 refused, 1 already in the library',
    );
    expect(await page.getByTestId('doc').count()).toBe(docs + 1);

    await page.reload();
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('batch-summary').allInnerTexts()).toEqual([
      '1 added, 0 refused',
      '0 added, 0 refused, 1 already in the library',
    ]);
    await page.getByRole('button', { name: 'Dismiss this report' }).first().click();
    await page.getByRole('button', { name: 'Dismiss this report' }).first().click();
    expect(await page.getByTestId('batch-report').count()).toBe(0);
    await page.reload();
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('batch-report').count()).toBe(0);
  });
});

describe('the Threads panel at 1000 px', () => {
  it('keeps the Import JSON control, "No file chosen" included, inside the panel', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1000, height: 800 } });
    app.track(context);
    const page = await context.newPage();
    await page.goto(app.url + QUERY);
    const input = page.getByTestId('import-json');
    await input.waitFor({ state: 'attached' });
    const panel = (await page.locator('[data-testid=threads]').boundingBox())!;
    const box = (await input.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    // The control's own painted width (its "No file chosen" text) does not overflow its box.
    expect(await input.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    await input.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT_DIR, 'newcomer-1000-threads.png') });
  });
});
