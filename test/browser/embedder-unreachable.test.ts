// A model host that hangs and then drops the connection (a network that cannot reach the hub):
// the embedder's load fails once, is not tried again on every embedding call, every document
// still goes in and is found by its words, the page says it once, and Try again (with the host
// back) loads the model and embeds the documents kept without vectors.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { paperSearch, useApp } from './app-page';
import { OUTPUT_DIR } from './harness';

const QUERY = '?modelPack=tiny';
const MODEL_FILES = '**/models/tiny/embedder/**';
const app = useApp(QUERY);
const dir = mkdtempSync(join(tmpdir(), 'unreachable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = 30;
const TOPICS = [
  'kestrel',
  'glacier',
  'violin',
  'compost',
  'lantern',
  'harbour',
  'orchard',
  'quarry',
  'meteor',
  'saddle',
];

function writeFolder(): string[] {
  return Array.from({ length: FILES }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length]!;
    const text =
      i === 17
        ? '# Ship stores\n\nThe quartermaster keeps the brass sextant wrapped in oilcloth inside the chart locker.\n'
        : `# Note ${i} on the ${topic}\n\nThis note ${i} describes the ${topic} in a few plain words, one of a folder of small files.\n`;
    const path = join(dir, `note-${String(i).padStart(2, '0')}.md`);
    writeFileSync(path, text);
    return path;
  });
}

/** Passages the documents hold (the list) and passages with a vector (the library's status line). */
async function passageCounts(page: Page): Promise<{ listed: number; vectors: number }> {
  const rows = await page.getByTestId('doc').allInnerTexts();
  const listed = rows.reduce((n, r) => n + Number(/(\d+) passages?/.exec(r)?.[1] ?? NaN), 0);
  const status = await page.locator('[data-worker=library]').innerText();
  return {
    listed,
    vectors: Number(/flat exact search: ([\d,]+) passages?/.exec(status)?.[1]?.replace(/,/g, '') ?? NaN),
  };
}

describe('model host unreachable', () => {
  it('fails the embedder once, keeps every document found by words, and embeds them after Try again', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Which passage is cited follows the scripted generator's own critique: the paper's search.
    await paperSearch(context);
    app.track(context);
    // Each request to the embedder's files hangs a while, then the connection times out.
    const asked: string[] = [];
    const hang = async (route: Route) => {
      asked.push(new URL(route.request().url()).pathname);
      await new Promise((r) => setTimeout(r, 1500));
      await route.abort('timedout').catch(() => undefined);
    };
    await context.route(MODEL_FILES, hang);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(app.url + QUERY);

    // The starter documents go in, unembedded; the embedder's failure is shown, naming the model and why.
    const evaluator = page.locator('[data-worker=evaluator]');
    await expect.poll(() => evaluator.getAttribute('data-state'), { timeout: 180_000 }).toBe('error');
    expect(await evaluator.locator('.error').innerText()).toMatch(
      /^Could not load the embedding model "tiny\/embedder" .*not found.*\. It is not fetched again on every call\./,
    );
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect
      .poll(() => page.locator('[data-worker=library]').getAttribute('data-state'), { timeout: 120_000 })
      .toBe('ready');
    const starters = await page.getByTestId('doc').count();
    expect(starters).toBeGreaterThan(0);
    // One load: at most one try of each file on each device (WebGPU, then WASM).
    const oneLoad = asked.length;
    console.log(`model-file requests for the failed load: ${oneLoad} (${[...new Set(asked)].join(', ')})`);
    expect(oneLoad).toBeGreaterThan(0);
    expect(oneLoad).toBeLessThanOrEqual(2 * new Set(asked).size);

    // A folder of files goes in without asking for the model again.
    const paths = writeFolder();
    await page.getByTestId('file-input').setInputFiles(paths);
    await page.getByTestId('batch-report').waitFor({ timeout: 300_000 });
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 60_000 }).toBe(starters + FILES);
    expect(await page.getByTestId('batch-summary').innerText()).toBe(`${FILES} added, 0 refused`);
    expect(await page.getByTestId('doc-pending').count()).toBe(starters + FILES);
    expect(asked.length).toBe(oneLoad);
    expect(await page.locator('[data-worker=library]').innerText()).toMatch(
      new RegExp(`${starters + FILES} documents are not embedded yet: found by their words only`),
    );

    // Said once: one line for the whole batch, one error in the status panel.
    const notEmbedded = page.locator('[data-testid=batch-not-embedded] li');
    expect(await notEmbedded.count()).toBe(1);
    expect(await notEmbedded.getAttribute('data-count')).toBe(String(FILES));
    expect(await notEmbedded.innerText()).toMatch(
      /^30 documents were added but not embedded yet \(.*tiny\/embedder.*\): they are found by their words/,
    );
    expect(await page.locator('[data-testid=batch-notes] li').count()).toBe(0);
    expect(await page.locator('[data-testid=status] .error').count()).toBe(1);

    // Found by its words.
    await page.fill('#question', 'Where does the quartermaster keep the brass sextant?');
    await page.getByTestId('ask').click();
    const done = ':is([data-testid=answer], [data-testid=evidence]):not([data-status=running])';
    await page.waitForSelector(done, { timeout: 120_000 });
    const view = page.locator('[data-testid=answer], [data-testid=evidence]');
    expect(await view.getAttribute('data-status')).toBe('done');
    expect(await view.innerText()).toMatch(/Ship stores/);
    expect(asked.length).toBe(oneLoad);
    await page.screenshot({ path: join(OUTPUT_DIR, 'embedder-unreachable.png'), fullPage: true });

    const before = await passageCounts(page);
    expect(before.listed).toBeGreaterThanOrEqual(starters + FILES);
    expect(before.vectors).toBe(0);

    // The host answers again: Try again loads the embedder and embeds what was kept, without a reload.
    await context.unroute(MODEL_FILES, hang);
    await page.getByTestId('retry-evaluator').click();
    await expect.poll(() => evaluator.getAttribute('data-state'), { timeout: 180_000 }).toBe('ready');
    await expect.poll(() => page.getByTestId('doc-pending').count(), { timeout: 180_000 }).toBe(0);
    await expect
      .poll(() => page.locator('[data-worker=library]').innerText(), { timeout: 30_000 })
      .not.toMatch(/not embedded yet/);
    expect(await page.getByTestId('doc').count()).toBe(starters + FILES);
    await expect
      .poll(() => passageCounts(page), { timeout: 30_000 })
      .toEqual({ listed: before.listed, vectors: before.listed });
    expect(await page.locator('[data-testid=status] .error').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
