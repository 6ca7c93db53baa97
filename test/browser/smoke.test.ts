import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROD_DIR, launchBrowser, serveDir, type Served } from './harness';

// The shipped build must work from any sub-path of any static host.
describe('production build served from a sub-path', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    browser = await launchBrowser();
    served = await serveDir(PROD_DIR, { prefix: '/some/sub/path/' });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('renders the page and fetches nothing outside its own folder', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(served.url);
    await page.waitForSelector('h1');
    expect(await page.locator('h1').first().textContent()).toMatch(/Self-RAG/);
    // What a visitor sees first: a question box to type in, and where to add documents.
    const question = page.getByLabel('Question', { exact: true });
    await question.waitFor();
    expect(await question.isEditable()).toBe(true);
    expect(await page.getByRole('button', { name: 'Choose files…' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    const outside = served.requests.filter((p) => !p.startsWith('/some/sub/path/'));
    expect(outside).toEqual([]);
    await page.close();
  });

  it('exposes a WebGPU adapter through SwiftShader with the test flags', async () => {
    const page = await browser.newPage();
    await page.goto(served.url);
    const hasAdapter = await page.evaluate(async () => {
      const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
      return !!(gpu && (await gpu.requestAdapter()));
    });
    expect(hasAdapter).toBe(true);
    await page.close();
  });
});
