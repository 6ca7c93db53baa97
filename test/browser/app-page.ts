// The e2e app served on loopback for one test file, one browser context per test
// (each page runs three workers, so contexts are closed between tests).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SETTINGS_KEY, SETTINGS_VERSION } from '../../src/app/persist/settings';
import { PAPER_DECODE_SETTINGS } from '../../src/core/defaults';
import { E2E_DIR, launchBrowser, serveDir, type Served } from './harness';

export interface AppUnderTest {
  readonly browser: Browser;
  /** Base URL of the served e2e build, ending in '/'. */
  readonly url: string;
  /** Closes this context after the current test. */
  track(context: BrowserContext): void;
  /** Opens the app in a fresh context and waits until the library lists a document. */
  open(browser?: Browser, query?: string): Promise<{ page: Page; errors: string[] }>;
}

/**
 * `settings` are stored before the page first loads (as a returning user's would be), e.g. the
 * paper's full search (PAPER_DECODE_SETTINGS) for tests about re-ranking a tree with alternatives.
 */
/** Stores `settings` as a returning user's before the page first loads (kept if the page changes them). */
export async function storeSettings(context: BrowserContext, settings: Record<string, unknown>): Promise<void> {
  await context.addInitScript(
    ([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    },
    [SETTINGS_KEY, JSON.stringify({ version: SETTINGS_VERSION, settings })] as const,
  );
}

/**
 * The paper's full search as the stored settings: for tests whose assertions follow the scripted
 * generator's own critique (which passage it cites), now that the defaults let the evaluator
 * critique and stop sooner (docs/benchmarks-answer.md).
 */
export const paperSearch = (context: BrowserContext) => storeSettings(context, { decode: PAPER_DECODE_SETTINGS });

export function useApp(defaultQuery: string, opts: { settings?: Record<string, unknown> } = {}): AppUnderTest {
  let browser: Browser | undefined;
  let served: Served | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    served = await serveDir(E2E_DIR);
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  return {
    get browser() {
      return browser!;
    },
    get url() {
      return served!.url;
    },
    track: (context) => void contexts.push(context),
    async open(b = browser!, query = defaultQuery) {
      const context = await b.newContext({ viewport: { width: 1400, height: 1000 } });
      contexts.push(context);
      if (opts.settings) await storeSettings(context, opts.settings);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(served!.url + query);
      await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
      return { page, errors };
    },
  };
}

/** The newest batch report: its summary line, refused files and notes, as the page shows them. */
export async function lastReport(page: Page) {
  const report = page.getByTestId('batch-report').last();
  return {
    summary: await report.getByTestId('batch-summary').innerText(),
    refused: await report
      .locator('[data-testid=batch-refused] li')
      .evaluateAll((els) =>
        els.map((e) => ({ name: e.getAttribute('data-name')!, text: (e as HTMLElement).innerText })),
      ),
    notes: await report
      .locator('[data-testid=batch-notes] li')
      .evaluateAll((els) =>
        els.map((e) => ({ name: e.getAttribute('data-name')!, text: (e as HTMLElement).innerText })),
      ),
  };
}
