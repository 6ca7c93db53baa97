// `npm start` serves the page styled: the dev server (started here from the project's own
// vite.config.ts) may apply its inline styles, while the built site keeps `style-src 'self'`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROD_DIR, ROOT, launchBrowser } from './harness';

const CSP = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/;

describe('npm start (the Vite dev server)', () => {
  let server: ViteDevServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await createServer({
      root: ROOT,
      configFile: join(ROOT, 'vite.config.ts'),
      server: { port: 0, host: '127.0.0.1', strictPort: false },
      logLevel: 'warn',
    });
    await server.listen();
    browser = await launchBrowser({ webgpu: false });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves the page with its styles applied and no policy violation', async () => {
    const url = server.resolvedUrls!.local[0]!;
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(v: string): void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    await page.goto(url);
    await page.locator('#question').waitFor({ timeout: 120_000 });
    // styles.css: the body font is the system stack, the ask button the accent colour.
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.body).fontFamily), { timeout: 60_000 })
      .toMatch(/system-ui/);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.layout')!).display)).toBe('grid');
    const policy = await page.evaluate(
      () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!,
    );
    expect(violations).toEqual([]);
    // Only style-src differs from the built page's policy.
    const built = CSP.exec(readFileSync(join(PROD_DIR, 'index.html'), 'utf8'))![1]!;
    expect(built).toContain("style-src 'self';");
    expect(policy.replace("style-src 'self' 'unsafe-inline'", "style-src 'self'")).toBe(built);
    // The offline panel says why this server cannot be used offline, and what to run instead.
    await expect
      .poll(() => page.getByTestId('offline-shell').innerText(), { timeout: 60_000 })
      .toMatch(/^This is the development server.*npm run build, then npm run preview/);
    await page.close();
  });
});
