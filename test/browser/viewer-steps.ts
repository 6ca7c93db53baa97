// Steps the source viewer's browser tests share: files added through the picker (each batch
// waited for and checked), evidence-only mode, and a listed passage opened in the viewer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { askAndSettle } from './ask';

/** Adds files through the file picker, written under `dir`, and waits for the batch's report: all of them added. */
export async function addFiles(page: Page, dir: string, files: { name: string; bytes: Uint8Array | Buffer }[]) {
  const paths = files.map((f) => {
    const path = join(dir, f.name);
    writeFileSync(path, f.bytes);
    return path;
  });
  const reports = await page.getByTestId('batch-report').count();
  await page.getByTestId('file-input').setInputFiles(paths);
  await expect.poll(() => page.getByTestId('batch-report').count(), { timeout: 300_000 }).toBe(reports + 1);
  expect(await page.getByTestId('batch-report').last().getByTestId('batch-summary').innerText()).toMatch(
    new RegExp(`^${files.length} added(, 0 refused)?$`),
  );
}

/** Evidence-only mode, from the notice a browser without WebGPU shows. */
export async function evidenceOnly(page: Page): Promise<void> {
  await page.getByTestId('use-evidence-only').click();
  await page.getByTestId('evidence-only').waitFor();
}

/** Asks in evidence-only mode and opens the listed passage of `title` (the one holding `words`, when given) in the viewer. */
export async function openEvidence(page: Page, question: string, title: string, words?: string) {
  // Waits for the search this click started, not for passages of an earlier question still on screen.
  expect(await askAndSettle(page, question)).toMatch(/^done: /);
  const listed = page.getByTestId('evidence-passage').filter({ hasText: title });
  const item = (words ? listed.filter({ hasText: words }) : listed).first();
  const button = item.getByTestId('evidence-open-source');
  const label = await button.innerText();
  await button.click();
  const dialog = page.getByTestId('passage-dialog');
  await dialog.waitFor();
  return { dialog, label };
}
