// What a reader is told when the model wrote nothing that is an answer (every candidate withheld:
// it copied its instructions), in the answer area, in a thread after reload and in the exports;
// which model and engine wrote an answer (the loaded one, not the settings' choice); and the
// answer-quality check (RAGAS) on the CPU engine waiting for its button so that it never holds up
// the next question.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ANSWER } from '../../src/generator/prompts';
import { COPY_THE_FORM } from '../doubles/default-script';
import { useApp } from './app-page';
import { E2E_DIR, launchBrowser, serveDir, type Served } from './harness';

const app = useApp('?modelPack=tiny&mode=always');

/** The viewed turn's answer once it is no longer being written. */
async function settled(page: Page) {
  const view = page.locator('[data-testid=turn].viewed [data-testid=answer]');
  await page.waitForSelector('[data-testid=turn].viewed [data-testid=answer]:not([data-status=running])', {
    timeout: 120_000,
  });
  return view;
}

async function ask(page: Page, question: string) {
  await page.fill('#question', question);
  await page.getByTestId('ask').click();
  await page.waitForSelector('[data-testid=turn].viewed [data-testid=answer][data-status=running]', {
    timeout: 60_000,
  });
  return settled(page);
}

async function download(page: Page, testid: string): Promise<string> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return readFileSync(await d.path(), 'utf8');
}

/** The words of the instructions the double copies, as a reader would see them. */
const FORM_WORDS = SYSTEM_ANSWER.slice(0, 40);

describe('an answer with nothing the model wrote being an answer (scripted web-llm double)', () => {
  it('says the model could not answer, shows the passages, and never shows the copied text as the answer, after reload and in exports', async () => {
    const { page, errors } = await app.open();
    const answer = await ask(page, `How do bees make honey? ${COPY_THE_FORM}`);
    expect(await answer.getAttribute('data-status')).toBe('done');
    const notice = answer.getByTestId('no-answer');
    expect(await notice.innerText()).toMatch(/could not answer from these passages.*repeated its instructions/);
    expect(await answer.getByTestId('segment').count()).toBe(0);
    const passages = answer.getByTestId('no-answer-passage');
    expect(await passages.count()).toBeGreaterThan(0);
    expect(await passages.first().innerText()).toMatch(/honey|bee/i);
    // What the model wrote is on the page only folded away and labelled as not an answer.
    expect(await answer.innerText()).not.toContain(FORM_WORDS);
    expect(await answer.getByTestId('withheld-written').getAttribute('open')).toBeNull();
    expect(await answer.getByTestId('written-by').innerText()).toMatch(/^Written by \S.* on web-llm\.$/);
    // Each passage opens in the source viewer.
    await answer.getByTestId('no-answer-open-source').first().click();
    const dialog = page.getByTestId('passage-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/honey|bee/i);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // A second question: the first turn, no longer viewed, still says why it has no answer.
    await ask(page, 'How do bees make honey?');
    const first = page.locator('[data-testid=turn]').first();
    const past = async () => first.getByTestId('turn-answer').innerText();
    expect(await past()).toMatch(/could not answer from these passages/);
    expect(await past()).not.toContain(FORM_WORDS);

    const md = await download(page, 'export-md');
    expect(md).toMatch(/could not answer from these passages/);
    expect(md).not.toContain(FORM_WORDS);
    expect(md).toMatch(/<sub>Model: \S.* \(web-llm\)<\/sub>/);
    const json = await download(page, 'export-json');
    expect(json).not.toContain(FORM_WORDS);
    const turns = Object.values(JSON.parse(json).thread.turns) as { settings: { writtenBy?: { engine: string } } }[];
    expect(turns.map((t) => t.settings.writtenBy?.engine)).toEqual(['web-llm', 'web-llm']);

    await page.reload();
    await page.locator('[data-testid=turn]').nth(1).waitFor({ timeout: 60_000 });
    expect(await past()).toMatch(/could not answer from these passages/);
    await first.getByTestId('view-turn').click();
    const again = await settled(page);
    expect(await again.getByTestId('no-answer').innerText()).toMatch(/could not answer from these passages/);
    expect(await again.getByTestId('no-answer-passage').count()).toBeGreaterThan(0);
    expect(await again.innerText()).not.toContain(FORM_WORDS);
    expect(errors).toEqual([]);
  });
});

describe('llama.cpp on the CPU (tiny chat GGUF, WebGPU switched off)', () => {
  const QUERY = '?modelPack=tiny&engine=wllama&gguf=models/tiny-gguf/chat.gguf&mode=always';
  let plain: Browser;
  let site: Served;
  beforeAll(async () => {
    plain = await launchBrowser({ webgpu: false });
    site = await serveDir(E2E_DIR);
  });
  afterAll(async () => {
    await plain?.close();
    await site?.close();
  });

  it('names the GGUF model and llama.cpp in the export, and checks answer quality only when asked, cancelled by the next question', async () => {
    const context = await plain.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(site.url + QUERY);
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    const first = await ask(page, 'Why does the sea have tides?');
    expect(await first.getAttribute('data-status')).toBe('done');
    const md = await download(page, 'export-md');
    expect(md).toContain('<sub>Model: chat.gguf (llama.cpp)</sub>');
    expect(await first.getByTestId('written-by').innerText()).toMatch(/^Written by chat\.gguf on llama\.cpp\.$/);

    // Every answer on the CPU here ends in some candidate that is an answer or in the no-answer
    // notice; either way the check is offered, not started.
    const hasSegments = (await first.getByTestId('segment').count()) > 0;
    if (hasSegments) {
      const metrics = first.getByTestId('answer-metrics');
      await metrics.waitFor();
      expect(await metrics.getAttribute('data-status')).toBe('offered');
      // Asked for, it starts; the next question cancels it and is answered.
      await first.getByTestId('ragas-check').click();
      await page.waitForSelector('[data-testid=answer-metrics]:not([data-status=offered])');
    }
    const second = await ask(page, 'How do bees make honey?');
    expect(await second.getAttribute('data-status')).toBe('done');
    expect(await page.getByTestId('answer-metrics').count()).toBeLessThanOrEqual(1);
    if ((await second.getByTestId('segment').count()) > 0) {
      const metrics = second.getByTestId('answer-metrics');
      expect(await metrics.getAttribute('data-status')).toBe('offered');
      // The check itself works on the CPU when asked for.
      await second.getByTestId('ragas-check').click();
      await page.waitForSelector('[data-testid=answer-metrics]:is([data-status=done], [data-status=failed])', {
        timeout: 300_000,
      });
      expect(Number(await metrics.getByTestId('metrics-calls').innerText())).toBeGreaterThan(0);
    }
    expect(hasSegments || (await second.getByTestId('segment').count()) > 0).toBe(true);

    // The Tuning panel says when the check runs here.
    const tuning = page.getByTestId('drawer-tuning');
    if ((await tuning.getAttribute('open')) === null) await tuning.locator('summary').click();
    expect(await page.getByTestId('ragas-when').innerText()).toMatch(
      /written on the CPU here, so it runs only when you ask/,
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
