// Screenshots of what a newcomer meets (first visit, a first answer, "Why this segment") at the
// desktop, 1000 px and 390 px, light and dark: run with `npx tsx test/browser/screens.ts <build dir> <out dir>`
// to look at the page before and after a layout change. Not a test: it asserts nothing.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, serveDir } from './harness';

const [dir, out] = process.argv.slice(2);
if (!dir || !out) throw new Error('usage: tsx test/browser/screens.ts <build dir> <out dir>');
mkdirSync(out, { recursive: true });
const browser = await launchBrowser();
const served = await serveDir(dir);
const widths: Array<[string, number, number]> = [
  ['desktop', 1400, 1000],
  ['1000', 1000, 800],
  ['phone', 390, 844],
];
try {
  for (const [name, width, height] of widths) {
    for (const scheme of ['light', 'dark'] as const) {
      const phone = width < 600;
      const context = await browser.newContext({
        viewport: { width, height },
        colorScheme: scheme,
        ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}),
      });
      const page = await context.newPage();
      await page.goto(served.url + '?modelPack=tiny');
      await page.locator('[data-testid=doc]').first().waitFor({ state: 'attached', timeout: 120_000 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(out, `first-visit-${name}-${scheme}.png`) });
      await page.fill('#question', 'How do bees make honey?');
      await page.getByTestId('ask').click();
      await page.waitForSelector(':is([data-testid=answer], [data-testid=evidence]):not([data-status=running])', {
        timeout: 120_000,
      });
      await page.screenshot({ path: join(out, `answer-${name}-${scheme}.png`) });
      await page
        .getByRole('button', { name: /Why this segment/ })
        .first()
        .click();
      const why = page.locator('.why-panel').first();
      await why.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(out, `why-${name}-${scheme}.png`) });
      await context.close();
    }
  }
} finally {
  await browser.close();
  await served.close();
}
