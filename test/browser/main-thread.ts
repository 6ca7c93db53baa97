// The page's main-thread tasks while some work runs, measured as CPU time from
// Chromium's trace (shared by the ingestion and OCR tests).
import type { Page } from 'playwright-core';

/**
 * Records the page's main-thread tasks while `work` runs. Two measures: the
 * PerformanceObserver 'longtask' wall time (what the page reports), and each
 * task's CPU time on the main thread from Chromium's trace (RunTask's `tdur`).
 * The machine these tests share runs several browsers on two cores, so a 10 ms
 * task can take 60 ms of wall time while its thread waits for a core; the CPU
 * time is the work the page itself put on its main thread, and is what is held
 * to 50 ms.
 */
export async function mainThreadTasks(
  page: Page,
  work: () => Promise<void>,
): Promise<{ longestWall: number; longestCpu: number; overCpu: number }> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata'],
  });
  await work();
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: Array<{
      name: string;
      ph: string;
      pid: number;
      tid: number;
      dur?: number;
      tdur?: number;
      args?: { name?: string };
    }>;
  };
  const mains = new Set(
    trace.traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const cpu = trace.traceEvents
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`))
    .map((e) => (e.tdur ?? 0) / 1000);
  const walls = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  if (cpu.length === 0) throw new Error('the trace holds no main-thread task: the measurement itself failed');
  return {
    longestWall: Math.round(Math.max(0, ...walls)),
    longestCpu: Math.round(Math.max(...cpu)),
    overCpu: cpu.filter((t) => t > 50).length,
  };
}
