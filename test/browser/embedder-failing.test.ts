// A network that cannot reach the embedding model: documents still go in, kept with their text
// and word index and marked "not embedded yet", are found by their words at once, and are
// embedded on a later visit where the model loads, without being added again.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApp } from './app-page';
import { OUTPUT_DIR } from './harness';

const QUERY = '?modelPack=tiny';
const app = useApp(QUERY);

describe('embedding model unavailable', () => {
  it('keeps dropped documents, finds them by words, and embeds them after a reload where the model loads', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    app.track(context);
    const block = (r: { fulfill(o: { status: number; body: string }): Promise<void> }) =>
      r.fulfill({ status: 404, body: 'not found' });
    await context.route('**/models/tiny/embedder/onnx/**', block);
    const page = await context.newPage();
    await page.goto(app.url + QUERY);

    // The starter documents go in, unembedded, instead of being refused.
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('doc-pending').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await page.locator('details.paste summary').click();
    await page.getByTestId('paste-title').fill('Harbour pilots');
    await page
      .getByTestId('paste-text')
      .fill(
        'Harbour pilots board incoming ships at the fairway buoy and steer them through the narrow channel to their berth.',
      );
    await page.getByTestId('paste-add').click();
    const pilots = page.locator('[data-testid=doc]', { hasText: 'Harbour pilots' });
    await pilots.waitFor({ timeout: 60_000 });
    expect(await pilots.getByTestId('doc-pending').count()).toBe(1);
    expect(await page.getByText(/was not added/).count()).toBe(0);
    await expect
      .poll(() => page.locator('[data-worker=library]').innerText(), { timeout: 30_000 })
      .toMatch(/not embedded yet: found by their words only/);

    // Found by its words at once.
    await page.fill('#question', 'Who steers ships from the fairway buoy to their berth?');
    await page.getByTestId('ask').click();
    const done = ':is([data-testid=answer], [data-testid=evidence]):not([data-status=running])';
    await page.waitForSelector(done, { timeout: 120_000 });
    const view = page.locator('[data-testid=answer], [data-testid=evidence]');
    expect(await view.getAttribute('data-status')).toBe('done');
    expect(await view.innerText()).toMatch(/Harbour pilots/);
    await page.screenshot({ path: join(OUTPUT_DIR, 'embedder-failing-words.png'), fullPage: true });

    // The model is reachable again: the next visit embeds what was kept, nothing is added twice.
    await context.unroute('**/models/tiny/embedder/onnx/**', block);
    await page.reload();
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('doc-pending').count(), { timeout: 120_000 }).toBe(0);
    expect(await page.locator('[data-testid=doc]', { hasText: 'Harbour pilots' }).count()).toBe(1);
    await expect
      .poll(() => page.locator('[data-worker=library]').innerText(), { timeout: 30_000 })
      .not.toMatch(/not embedded yet/);
  });
});
