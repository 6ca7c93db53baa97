// Opening a thread from the list. A reload shows the thread that was open and asks nothing again:
// the address carries the viewed question (it is a shareable link), so a reload after opening an
// older thread used to ask that question again in a new thread (issue 47, item 4). On a phone the
// list is folded below the answer: choosing a thread there left the page scrolled at the list.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useApp } from './app-page';
import { askAndSettle } from './ask';

const app = useApp('?modelPack=tiny');

async function ask(page: Page, question: string): Promise<void> {
  expect(await askAndSettle(page, question, { within: '[data-testid=turn].viewed' })).toMatch(/^done: /);
}

const shownQuestions = (page: Page) =>
  page
    .locator('[data-testid=turn] .turn-question')
    .allInnerTexts()
    .then((qs) => qs.map((q) => q.replace(/^Question \d+:\s*/, '')));

/** After a reload: the library is ready (a linked question would be asked now), and a moment more for it to start. */
async function reloadAndSettle(page: Page): Promise<void> {
  await page.reload();
  await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
  await page.locator('[data-testid=turn]').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(3000);
}

describe('opening a thread', () => {
  it('then a reload: after opening an older thread shows that thread and makes no new one', async () => {
    const { page, errors } = await app.open();
    await ask(page, 'How do bees make honey?');
    await page.getByTestId('new-thread').click();
    await ask(page, 'Why does the sea have tides?');
    await expect.poll(() => page.getByTestId('thread').count()).toBe(2);

    await page.getByTestId('thread-open').filter({ hasText: 'How do bees make honey?' }).click();
    await expect.poll(() => shownQuestions(page)).toEqual(['How do bees make honey?']);
    // The address names the question shown: that is what a reload used to ask again.
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('How do bees make honey?');

    await reloadAndSettle(page);
    expect(await shownQuestions(page)).toEqual(['How do bees make honey?']);
    expect(await page.getByTestId('thread').count()).toBe(2);
    expect(await page.locator('[data-testid=thread].current').innerText()).toMatch(/How do bees make honey\?/);
    expect(errors).toEqual([]);
  });

  it('on a phone brings its answer into view', async () => {
    const context = await app.browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    app.track(context);
    const page = await context.newPage();
    await page.goto(`${app.url}?modelPack=tiny`);
    await page.locator('[data-testid=doc]').first().waitFor({ state: 'attached', timeout: 120_000 });
    await ask(page, 'How do bees make honey?');
    // The thread list is folded below the answer on a phone.
    await page.locator('[data-testid=drawer-threads] > summary').click();
    await page.getByTestId('new-thread').click();
    await ask(page, 'Why does the sea have tides?');
    const open = page.getByTestId('thread-open').filter({ hasText: 'How do bees make honey?' });
    await open.scrollIntoViewIfNeeded();
    await open.click();
    await expect.poll(() => shownQuestions(page)).toEqual(['How do bees make honey?']);
    // The opened turn's question is on screen, not the list.
    await expect
      .poll(() =>
        page.locator('[data-testid=turn].viewed .turn-question').evaluate((e) => {
          const r = e.getBoundingClientRect();
          // A scroll to the turn's top can land a fraction of a pixel past it (device scale 2).
          return r.top >= -1 && r.bottom <= innerHeight;
        }),
      )
      .toBe(true);
  });
});
