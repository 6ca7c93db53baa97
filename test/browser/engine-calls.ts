// What the e2e build's scripted generator was asked, heard in the page under test
// (test/doubles/engine-factory.ts tells each call on a BroadcastChannel).
import type { Page } from 'playwright-core';
import { ENGINE_CALLS_CHANNEL, type HeardCall } from '../doubles/engine-calls-name';

interface Ears {
  __heardCalls?: HeardCall[];
}

/** From now on, the page keeps every call the generator is asked. */
export async function listenToEngine(page: Page): Promise<void> {
  await page.evaluate((name) => {
    const w = window as unknown as Ears;
    w.__heardCalls = [];
    new BroadcastChannel(name).onmessage = (e: MessageEvent<HeardCall>) => w.__heardCalls!.push(e.data);
  }, ENGINE_CALLS_CHANNEL);
}

/** The calls heard since the last take, and forgets them. */
export async function takeHeard(page: Page): Promise<HeardCall[]> {
  return page.evaluate(() => {
    const w = window as unknown as Ears;
    return (w.__heardCalls ?? []).splice(0);
  });
}
