// The status panel says what is really usable: an evaluator whose embedding
// model failed to load is not "ready", and the page probes for a local model
// pack once, not once per catalogue model.
import { describe, expect, it } from 'vitest';
import { useApp } from './app-page';

const app = useApp('?modelPack=tiny');

describe('status panel', () => {
  it('says the evaluator is not usable when its embedding model fails to load, and names the model', async () => {
    const context = await app.browser.newContext();
    app.track(context);
    const page = await context.newPage();
    // The embedder's weights are missing from the site, as after a half-copied model pack.
    await context.route('**/models/tiny/embedder/onnx/**', (r) => r.fulfill({ status: 404, body: 'not found' }));
    await page.goto(app.url + '?modelPack=tiny');
    const evaluator = page.locator('[data-worker=evaluator]');
    await expect.poll(() => evaluator.getAttribute('data-state'), { timeout: 120_000 }).toBe('error');
    expect(await evaluator.innerText()).toMatch(/Could not load the embedding model "tiny\/embedder"/);
  });

  it('requests the local model pack configuration at most once on first load', async () => {
    const context = await app.browser.newContext();
    app.track(context);
    const page = await context.newPage();
    const probes: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('app-config.json')) probes.push(r.url());
    });
    await page.goto(app.url + '?modelPack=tiny');
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect
      .poll(() => page.locator('[data-worker=evaluator]').getAttribute('data-state'), { timeout: 120_000 })
      .toBe('ready');
    // The model picker has marked which catalogue models are cached by now.
    await page.waitForTimeout(1000);
    expect(probes.length).toBeLessThanOrEqual(1);
  });
});
