// Holds the e2e generator's model load open (see test/doubles/engine-factory.ts), so a
// test can act in the window a real model's load leaves and a scripted one closes at once.
import type { Page } from 'playwright-core';
import { HOLD_LOAD_CACHE } from '../doubles/hold-load-name';

/** From now on, every load in this origin waits until `releaseLoad`. */
export async function holdLoad(page: Page): Promise<void> {
  await page.evaluate((name) => caches.open(name).then(() => undefined), HOLD_LOAD_CACHE);
}

export async function releaseLoad(page: Page): Promise<void> {
  await page.evaluate((name) => caches.delete(name).then(() => undefined), HOLD_LOAD_CACHE);
}
