// Asking on the page and waiting for that answer, not for one already on screen. A page that shows
// an earlier answer (the thread restored after a reload, the previous test's question) matches
// "an answer that is not running" before the click has taken effect; on a loaded machine that
// window is wide. The latch below is set by the page's own running state after the click.
import type { Frame, Page } from 'playwright-core';

const VIEW = ':is([data-testid=answer], [data-testid=evidence])';

interface Latch {
  __askSeen?: boolean;
  __askObserver?: MutationObserver;
}

/** Sets the latch: true from the moment an answer or evidence view shows a running answer. */
async function armLatch(page: Page | Frame): Promise<void> {
  await page.evaluate((view) => {
    const w = window as unknown as Latch;
    w.__askObserver?.disconnect();
    w.__askSeen = false;
    const look = () => {
      if (document.querySelector(`${view}[data-status=running]`)) w.__askSeen = true;
    };
    w.__askObserver = new MutationObserver(look);
    w.__askObserver.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-status'],
    });
  }, VIEW);
}

/**
 * Types `question`, presses Ask, and waits until the answer it started has run and settled
 * (`until: 'running'`: only until it runs). Returns the settled view's status and text, for the
 * caller's assertion (on failure, the page's own words say why).
 */
export async function askAndSettle(
  page: Page | Frame,
  question: string,
  opts: { timeout?: number; until?: 'settled' | 'running'; within?: string } = {},
): Promise<string> {
  await page.fill('#question', question, { timeout: 30_000 });
  return actAndSettle(page, () => page.getByTestId('ask').click(), opts);
}

/**
 * Does `act` (a click that starts an answer: Ask, Save of an edited question, Regenerate) and
 * waits until the answer it started has run and settled, as askAndSettle does. Waiting for "an
 * answer that is not running" alone is satisfied by the answer already on screen (an edited
 * turn's earlier version) before the click has taken effect.
 */
export async function actAndSettle(
  page: Page | Frame,
  act: () => Promise<void>,
  opts: { timeout?: number; until?: 'settled' | 'running'; within?: string } = {},
): Promise<string> {
  const timeout = opts.timeout ?? 120_000;
  // A thread shows several turns: `within` narrows the settled view to one (e.g. the viewed turn).
  const view = opts.within ? `${opts.within} ${VIEW}` : VIEW;
  await armLatch(page);
  await act();
  await page.waitForFunction(() => (window as unknown as Latch).__askSeen === true, undefined, { timeout });
  if (opts.until === 'running') return 'running';
  await page.waitForFunction(
    (v) => document.querySelector(v) !== null && document.querySelector(`${v}[data-status=running]`) === null,
    view,
    { timeout },
  );
  const shown = page.locator(view).last();
  return `${await shown.getAttribute('data-status')}: ${await shown.innerText()}`;
}
