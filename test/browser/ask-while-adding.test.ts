// Asking while documents are being added: a document's words go in before its vectors, so a
// question asked mid-batch finds it by its words at once, and the answer says how much of the
// library search by meaning reached (counted from the library, not estimated). Released, the
// batch ends with every passage embedded, and a new question's answer says nothing of it.
//
// "Mid-batch" is made deterministic by holding the embedder's passage batches: an init script
// keeps the page's `embed` calls to the evaluator worker (comlink APPLY messages) until the test
// lets them go. The question's own embedding (`embedQueries`) is not held.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { askAndSettle } from './ask';
import { paperSearch, useApp } from './app-page';
import { OUTPUT_DIR } from './harness';

const QUERY = '?modelPack=tiny';
const app = useApp(QUERY);
const dir = mkdtempSync(join(tmpdir(), 'ask-while-adding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Hold {
  __holdEmbed?: boolean;
  __heldEmbeds?: { worker: Worker; message: unknown; transfer: Transferable[] }[];
  __releaseEmbeds?: () => number;
}

/** Holds the page's passage-embedding calls to its workers while `__holdEmbed` is true. */
function holdEmbeddings(): void {
  const w = window as unknown as Hold;
  w.__heldEmbeds = [];
  const post = Worker.prototype.postMessage as (this: Worker, m: unknown, t?: Transferable[]) => void;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: unknown) {
    const m = message as { type?: string; path?: string[] } | null;
    const list = Array.isArray(transfer) ? (transfer as Transferable[]) : [];
    if (w.__holdEmbed && m?.type === 'APPLY' && m.path?.length === 1 && m.path[0] === 'embed') {
      w.__heldEmbeds!.push({ worker: this, message, transfer: list });
      return;
    }
    post.call(this, message, list);
  } as typeof Worker.prototype.postMessage;
  w.__releaseEmbeds = () => {
    w.__holdEmbed = false;
    const held = w.__heldEmbeds!.splice(0);
    for (const h of held) post.call(h.worker, h.message, h.transfer);
    return held.length;
  };
}

/** Passages the list holds, and those of documents still waiting for their vectors. */
async function listedPassages(page: Page): Promise<{ total: number; waiting: number }> {
  const rows = await page
    .getByTestId('doc')
    .evaluateAll((els) =>
      els.map((e) => ({ text: (e as HTMLElement).innerText, pending: !!e.querySelector('[data-testid=doc-pending]') })),
    );
  const count = (t: string) => Number(/(\d+) passages?/.exec(t)?.[1] ?? Number.NaN);
  return {
    total: rows.reduce((n, r) => n + count(r.text), 0),
    waiting: rows.reduce((n, r) => n + (r.pending ? count(r.text) : 0), 0),
  };
}

/** Passages with a vector, as the library's status line gives them. */
async function vectors(page: Page): Promise<number> {
  const status = await page.locator('[data-worker=library]').innerText();
  return Number(/flat exact search: ([\d,]+) passages?/.exec(status)?.[1]?.replace(/,/g, '') ?? Number.NaN);
}

describe('asking while documents are being added', () => {
  it('answers from the words of a document not yet embedded, says how much meaning search covers, and completes the batch', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Which passage is cited follows the scripted generator's own critique: the paper's search.
    await paperSearch(context);
    app.track(context);
    await context.addInitScript(holdEmbeddings);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(app.url + QUERY);

    // The starter library in, embedded; the embedding model loaded.
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect
      .poll(() => page.locator('[data-worker=library]').getAttribute('data-state'), { timeout: 120_000 })
      .toBe('ready');
    await expect
      .poll(() => page.locator('[data-worker=evaluator]').getAttribute('data-state'), { timeout: 180_000 })
      .toBe('ready');
    const starters = await page.getByTestId('doc').count();
    expect(await page.getByTestId('doc-pending').count()).toBe(0);
    await expect.poll(() => vectors(page), { timeout: 30_000 }).toBe((await listedPassages(page)).total);
    const before = await vectors(page);

    // A batch whose first document holds the answer; its passages' embedding is held.
    const paths = [
      [
        'a-ship-stores.md',
        '# Ship stores\n\nThe quartermaster keeps the brass sextant wrapped in oilcloth inside the chart locker.\n',
      ],
      ['b-kestrel.md', '# The kestrel\n\nA kestrel hovers over the meadow before it drops onto a vole.\n'],
      ['c-glacier.md', '# The glacier\n\nA glacier carves a valley as it grinds slowly downhill.\n'],
    ].map(([name, text]) => {
      const path = join(dir, name!);
      writeFileSync(path, text!);
      return path;
    });
    await page.evaluate(() => {
      (window as unknown as Hold).__holdEmbed = true;
    });
    await page.getByTestId('file-input').setInputFiles(paths);

    // Its words are in: listed, waiting for its vectors, while the batch is still running.
    const shipStores = page.locator('[data-testid=doc]', { hasText: 'Ship stores' });
    await shipStores.getByTestId('doc-pending').waitFor({ timeout: 120_000 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as Hold).__heldEmbeds!.length), { timeout: 60_000 })
      .toBeGreaterThan(0);
    expect(await page.getByTestId('batch-report').count()).toBe(0);
    const mid = await listedPassages(page);
    expect(mid.waiting).toBeGreaterThan(0);
    expect(await page.getByTestId('doc').count()).toBe(starters + 1);

    // Asked now, it is answered now, citing the document found by its words.
    const shown = await askAndSettle(page, 'Where does the quartermaster keep the brass sextant?');
    expect(shown).toMatch(/^done: /);
    const view = page.locator('[data-testid=answer], [data-testid=evidence]').last();
    const cited = await view.locator('.citation').allInnerTexts();
    expect(cited.some((c) => /Ship stores/.test(c))).toBe(true);
    const notice = view.getByTestId('meaning-coverage');
    const embedded = mid.total - mid.waiting;
    expect(embedded).toBe(before);
    expect(await notice.getAttribute('data-embedded')).toBe(String(embedded));
    expect(await notice.getAttribute('data-total')).toBe(String(mid.total));
    expect(await notice.innerText()).toBe(
      `Meaning search covers ${embedded.toLocaleString('en')} of ${mid.total.toLocaleString('en')} passages so far; the rest are found by their words.`,
    );
    // Still mid-batch: the answer did not wait for it.
    expect(await page.getByTestId('batch-report').count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT_DIR, 'ask-while-adding.png'), fullPage: true });

    // Let the embedder go: the batch ends with every passage embedded.
    expect(await page.evaluate(() => (window as unknown as Hold).__releaseEmbeds!())).toBeGreaterThan(0);
    await page.getByTestId('batch-report').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('batch-summary').innerText()).toBe('3 added, 0 refused');
    expect(await page.getByTestId('doc-pending').count()).toBe(0);
    expect(await page.getByTestId('doc').count()).toBe(starters + 3);
    const after = await listedPassages(page);
    await expect.poll(() => vectors(page), { timeout: 30_000 }).toBe(after.total);
    // The answer asked mid-batch keeps what it said of its search.
    expect(await notice.innerText()).toMatch(/^Meaning search covers /);

    // A new question: the whole library is searched by meaning, and nothing is said of it.
    expect(await askAndSettle(page, 'What does a kestrel drop onto?')).toMatch(/^done: /);
    const next = page.locator('[data-testid=answer], [data-testid=evidence]').last();
    expect((await next.locator('.citation').allInnerTexts()).some((c) => /kestrel/i.test(c))).toBe(true);
    expect(await next.getByTestId('meaning-coverage').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
