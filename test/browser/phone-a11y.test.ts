// A phone-sized page and an accessibility scan: at 390 px nothing scrolls sideways and the
// question and answer come before the library and tuning (the library open for a newcomer, the rest folded); every
// control is reachable from the keyboard; axe-core finds no serious or critical violation.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COPY_THE_FORM } from '../doubles/default-script';
import { useApp } from './app-page';
import { askAndSettle } from './ask';
import { OUTPUT_DIR } from './harness';

const QUERY = '?modelPack=tiny';
const app = useApp(QUERY);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core run in the page (evaluated through the debugging protocol, so the page's CSP stays as it is). */
async function axe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const a = (
      globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const r = await a.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })),
    }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

async function ask(page: Page, question: string): Promise<void> {
  await askAndSettle(page, question);
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
  await page.locator('#question').waitFor();
  // The library is folded on a phone; its documents are there all the same.
  await page.locator('[data-testid=doc]').first().waitFor({ state: 'attached', timeout: 120_000 });
  return page;
}

const pageWidth = (page: Page) =>
  page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));

describe('on a phone (390 px)', () => {
  it('has no sideways scroll, puts the question and answer first and folds the side panels', async () => {
    const page = await phone();
    await ask(page, 'How do bees make honey?');
    const width = await pageWidth(page);
    console.log(`[phone] page width at 390 px viewport: ${width}px`);
    expect(width).toBeLessThanOrEqual(390);
    const top = async (sel: string) => (await page.locator(sel).first().boundingBox())!.y;
    expect(await top('#question')).toBeLessThan(await top('[data-testid=drawer-library]'));
    expect(await top('[data-testid=answer]')).toBeLessThan(await top('[data-testid=drawer-library]'));
    expect(await top('[data-testid=answer]')).toBeLessThan(await top('[data-testid=drawer-tuning]'));
    // A newcomer's library is open (how to add documents); tuning and the models are folded.
    expect(await page.getByTestId('doc').first().isVisible()).toBe(true);
    expect(await page.getByTestId('w-sup').isVisible()).toBe(false);
    expect(await page.getByTestId('engine').isVisible()).toBe(false);
    // Opening a section from the keyboard shows it, still without sideways scroll.
    await page.locator('[data-testid=drawer-models] > summary').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('engine').waitFor();
    await page.locator('[data-testid=drawer-tuning] > summary').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('w-sup').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(OUTPUT_DIR, 'phone.png'), fullPage: true });
    const bad = await axe(page);
    expect(bad).toEqual([]);
  });
});

describe('accessibility', () => {
  it('axe-core finds no serious or critical violation, before and after an answer', async () => {
    const { page } = await app.open();
    expect(await axe(page)).toEqual([]);
    await ask(page, 'Why does the sea have tides?');
    await page
      .getByRole('button', { name: /Why this segment/ })
      .first()
      .click();
    const bad = await axe(page);
    console.log(`[axe] serious/critical violations after an answer: ${bad.length}`);
    expect(bad).toEqual([]);
  });

  it('axe-core finds none on a no-answer notice with its passages, what was written unfolded', async () => {
    const { page } = await app.open();
    await ask(page, `How do bees make honey? ${COPY_THE_FORM}`);
    await page.getByTestId('no-answer-passage').first().waitFor();
    await page.getByTestId('withheld-written').locator('summary').click();
    await page.getByTestId('beam-tree').locator('summary').click();
    const bad = await axe(page);
    console.log(`[axe] serious/critical violations on a no-answer notice: ${bad.length}`);
    expect(bad).toEqual([]);
  });

  it('the keyboard alone reaches the question, the ask button, the library and the tuning', async () => {
    const { page } = await app.open();
    const reached = new Set<string>();
    await page.locator('body').focus();
    for (let i = 0; i < 200; i++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el
          ? el.dataset.testid ||
              el.id ||
              el.getAttribute('aria-label') ||
              el.textContent?.trim().slice(0, 30) ||
              el.tagName
          : '';
      });
      reached.add(id);
    }
    for (const want of ['question', 'new-thread', 'w-sup', 'Choose files…']) expect([...reached], want).toContain(want);
  });
});
