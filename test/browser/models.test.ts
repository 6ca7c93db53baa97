// The language model picker in the e2e build: the real generator worker and the
// real web-llm cache functions on the page, around the engine double, which
// records a finished load in the Cache API under web-llm's own keys.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useApp } from './app-page';
import { OUTPUT_DIR } from './harness';

const QUERY = '?modelPack=tiny&evaluatorDevice=wasm';

const { open } = useApp(QUERY);

const generator = (page: Page) => page.locator('[data-worker=generator]');
const mark = (page: Page, id: string) =>
  page.locator(`[data-testid=model] option[value="${id}"]`).getAttribute('data-downloaded');
const checked = (page: Page) => page.getByTestId('model-picker').getAttribute('data-checked');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(OUTPUT_DIR, `models-${name}.png`), fullPage: true });

describe('language model picker', () => {
  it('marks a model downloaded once it loaded, keeps the mark on the next visit, and deleting it frees the cache', async () => {
    const { page, errors } = await open();
    await expect.poll(() => checked(page), { timeout: 60_000 }).toBe('true');
    expect(await mark(page, 'qwen2.5-0.5b')).toBe('false');
    expect(await page.getByTestId('downloaded-model').count()).toBe(0);

    await page.getByTestId('model').selectOption('qwen2.5-0.5b');
    await page.getByTestId('load-model').click();
    await expect.poll(() => generator(page).getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    await expect.poll(() => mark(page, 'qwen2.5-0.5b')).toBe('true');
    expect(await mark(page, 'qwen2.5-1.5b')).toBe('false');
    expect(await page.locator('[data-testid=model] option:checked').innerText()).toMatch(/downloaded/);

    // A second visit finds it in the browser cache.
    await page.reload();
    await expect.poll(() => checked(page), { timeout: 60_000 }).toBe('true');
    expect(await mark(page, 'qwen2.5-0.5b')).toBe('true');
    const row = page.locator('[data-testid=downloaded-model][data-model="qwen2.5-0.5b"]');
    expect(await row.innerText()).toContain('Qwen2.5 0.5B');
    await shot(page, 'downloaded');

    // Deleting asks first; "Keep it" keeps it.
    await row.getByTestId('delete-model').click();
    expect(await row.innerText()).toMatch(/Delete it from this browser\?/);
    await row.getByRole('button', { name: 'Keep it' }).click();
    expect(await mark(page, 'qwen2.5-0.5b')).toBe('true');

    // Deleting the loaded model unloads it too.
    await page.getByTestId('load-model').click();
    await expect.poll(() => generator(page).getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    await row.getByTestId('delete-model').click();
    await row.getByTestId('confirm-delete-model').click();
    await expect.poll(() => mark(page, 'qwen2.5-0.5b')).toBe('false');
    expect(await generator(page).getAttribute('data-state')).toBe('idle');
    expect(await page.getByTestId('downloaded-model').count()).toBe(0);
    // The weight shards are really gone from web-llm's cache.
    const shards = await page.evaluate(
      async () => (await (await caches.open('webllm/model')).keys()).filter((r) => r.url.endsWith('.bin')).length,
    );
    expect(shards).toBe(0);
    expect(errors).toEqual([]);
  });

  it('refuses a custom model with a bad address, and after a failed load offers retry, the smallest model and evidence-only mode', async () => {
    const { page, errors } = await open();
    await page.getByTestId('custom-model').locator('summary').click();
    await page.getByTestId('custom-name').fill('selfrag_llama2_7b-q4f16_1-MLC');
    await page.getByTestId('custom-weights').fill('http://models.example/selfrag/');
    await page.getByTestId('custom-lib').fill('https://models.example/selfrag.wasm');
    await page.getByTestId('custom-native').check();
    await page.getByTestId('custom-save').click();
    expect(await page.getByTestId('custom-problem').innerText()).toMatch(
      /weights URL must start with https:\/\/ or be a file on this site/,
    );
    expect(await page.locator('[data-testid=model] option[value=custom]').count()).toBe(0);

    // A valid one whose weights make the engine double fail like an out-of-memory load.
    await page.getByTestId('custom-weights').fill('https://models.example/selfrag/#fail=oom');
    await page.getByTestId('custom-save').click();
    expect(await page.getByTestId('custom-problem').count()).toBe(0);
    expect(await page.getByTestId('model').inputValue()).toBe('custom');
    expect(await page.locator('[data-testid=model] option:checked').innerText()).toContain('native Self-RAG');

    await page.getByTestId('load-model').click();
    await expect.poll(() => generator(page).getAttribute('data-state'), { timeout: 60_000 }).toBe('error');
    expect(await generator(page).locator('.error').innerText()).toMatch(/GPU stopped responding.*smaller model/);
    expect(await page.getByTestId('load-model').innerText()).toBe('Try loading again');
    await shot(page, 'load-failed');

    await page.getByTestId('model-evidence-only').click();
    expect(await page.getByTestId('evidence-only').innerText()).toMatch(
      /could not be loaded: The GPU stopped responding/,
    );
    await page.getByRole('button', { name: 'Try writing answers again' }).click();

    await page.getByTestId('smaller-model').click();
    expect(await page.getByTestId('model').inputValue()).toBe('qwen2.5-0.5b');
    expect(await generator(page).getAttribute('data-state')).toBe('idle');
    await page.getByTestId('load-model').click();
    await expect.poll(() => generator(page).getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    expect(await generator(page).innerText()).toContain('Qwen2.5-0.5B-Instruct');

    // The custom model stays in the list over a reload.
    await page.reload();
    await page.getByTestId('model').waitFor();
    expect(await page.locator('[data-testid=model] option[value=custom]').innerText()).toContain(
      'selfrag_llama2_7b-q4f16_1-MLC',
    );
    expect(errors).toEqual([]);
  });

  it('temperature persists over a reload and a change asks for a new answer', async () => {
    const { page, errors } = await open();
    expect(await page.getByTestId('temperature').inputValue()).toBe('0');
    expect(await page.getByTestId('model-picker').innerText()).toMatch(/same question may give a different tree/);
    await page.fill('#question', 'Why does the sea have tides?');
    await page.getByTestId('ask').click();
    await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 120_000 });
    expect(await page.getByTestId('rerun-offer').count()).toBe(0);

    await page.getByTestId('temperature').fill('0.7');
    expect(await page.getByTestId('rerun-offer').innerText()).toMatch(/You changed temperature/);

    await page.reload();
    await page.getByTestId('temperature').waitFor();
    expect(await page.getByTestId('temperature').inputValue()).toBe('0.7');
    expect(errors).toEqual([]);
  });
});
