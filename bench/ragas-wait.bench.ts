// RAGAS bench: what the answer-quality check (faithfulness, answer relevance, context relevance)
// adds to the wait after an answer, and whether it holds up the next question. For each engine,
// in one browser, on one page, for the same question:
// - answer ms: a question asked with nothing else running (the baseline);
// - RAGAS ms: the check run to its end after that answer (started by the page itself where it runs
//   after each answer, by its button where it runs on request), and its model calls;
// - next ms: a question asked while the check of the answer before it is running (a new thread, as
//   a reader starts one); the check is cancelled, so next / answer is about 1.0 when nothing waits.
// Engines: the scripted web-llm double on WebGPU (SwiftShader) and llama.cpp on the CPU with the
// tiny chat GGUF (the e2e build; builds it unless SKIP_BUILD=1); with --real, also
// Qwen2.5-Coder-0.5B-Instruct Q4_K_M on llama.cpp over two Rust-book chapters (the production
// build with the real model pack; builds it unless SKIP_BUILD=1; Coder-tuned, which suits the
// Rust book). `npm run bench -- ragas-wait [--real]`.
import type { Page } from 'playwright-core';
import { E2E_DIR, PROD_DIR, buildE2E, buildProduction, launchBrowser, serveDir } from '../test/browser/harness';

const RUNS = Number(process.env.RAGAS_RUNS ?? 3);
/** Engines to run, by the start of their name (RAGAS_ENGINES=llama.cpp), all when unset. */
const ONLY = process.env.RAGAS_ENGINES?.split(',');
const t0 = Date.now();
const step = (what: string) => console.error(`[ragas-wait +${((Date.now() - t0) / 1000).toFixed(0)} s] ${what}`);

interface Sample {
  answerMs: number;
  ragasMs: number;
  calls: number;
  automatic: boolean;
  nextMs: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

const VIEWED = '[data-testid=turn].viewed [data-testid=answer]';

/** Asks in a new thread; ms until this answer is finished. */
async function ask(page: Page, question: string, timeout: number): Promise<number> {
  await page.getByTestId('new-thread').click();
  await page.fill('#question', question);
  const t0 = Date.now();
  await page.getByTestId('ask').click();
  await page.waitForSelector(`${VIEWED}[data-status=running]`, { timeout });
  await page.waitForSelector(`${VIEWED}:not([data-status=running])`, { timeout });
  return Date.now() - t0;
}

/** Starts the check of the viewed answer (by its button where it waits for one); whether the page started it itself. */
async function startCheck(page: Page): Promise<boolean> {
  const panel = `${VIEWED} [data-testid=answer-metrics]`;
  await page.waitForSelector(panel, { timeout: 60_000 });
  const offered = (await page.locator(panel).getAttribute('data-status')) === 'offered';
  if (offered) await page.locator(`${VIEWED} [data-testid=ragas-check]`).click();
  return !offered;
}

async function once(page: Page, question: string, timeout: number): Promise<Sample> {
  const answerMs = await ask(page, question, timeout);
  step(`answer ${answerMs} ms`);
  const t1 = Date.now();
  const automatic = await startCheck(page);
  const panel = `${VIEWED} [data-testid=answer-metrics]`;
  await page.waitForSelector(`${panel}:is([data-status=done], [data-status=failed])`, { timeout });
  const ragasMs = Date.now() - t1;
  const calls = Number(await page.locator(`${panel} [data-testid=metrics-calls]`).innerText());
  step(`RAGAS ${ragasMs} ms, ${calls} calls`);
  // The next question, asked while the check of the answer before it runs.
  await ask(page, question, timeout);
  await startCheck(page);
  // (The double's check may be over before it is seen running; the next question is asked all the same.)
  await page.waitForSelector(`${panel}:is([data-status=running], [data-status=done], [data-status=failed])`, {
    timeout,
  });
  const nextMs = await ask(page, question, timeout);
  return { answerMs, ragasMs, calls, automatic, nextMs };
}

async function engine(opts: {
  name: string;
  url: string;
  webgpu: boolean;
  question: string;
  files?: string[];
  timeout: number;
}): Promise<void> {
  if (ONLY && !ONLY.some((o) => opts.name.startsWith(o))) return;
  step(opts.name);
  const browser = await launchBrowser({ webgpu: opts.webgpu });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(opts.url);
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    if (opts.files) {
      await page.getByTestId('file-input').setInputFiles(opts.files);
      await page.getByTestId('batch-report').last().waitFor({ timeout: 600_000 });
    }
    await ask(page, opts.question, opts.timeout); // loads the models
    step('models loaded');
    const writer = await page.locator(`${VIEWED} [data-testid=written-by]`).innerText();
    const device = await page.locator('[data-testid=status] [data-worker=generator]').getAttribute('data-device');
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await once(page, opts.question, opts.timeout));
    const answer = median(samples.map((s) => s.answerMs));
    const ragas = median(samples.map((s) => s.ragasMs));
    const next = median(samples.map((s) => s.nextMs));
    const when = samples.every((s) => s.automatic) ? 'after each answer' : 'on request';
    console.log(
      `| ${opts.name}: ${writer} ${device ?? ''} | ${answer} | ${ragas} | ${(ragas / answer).toFixed(2)}× | ${median(samples.map((s) => s.calls))} | ${when} | ${next} | ${(next / answer).toFixed(2)}× |`,
    );
  } finally {
    await browser.close();
  }
}

const HEADER = [
  '| engine, model (device, threads) | answer ms (baseline) | RAGAS ms after it | RAGAS / answer | RAGAS model calls | RAGAS runs | next answer ms, asked while RAGAS runs | next / answer |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];

export async function run(): Promise<void> {
  const real = process.argv.includes('--real');
  if (process.env.SKIP_BUILD !== '1') {
    buildE2E();
    if (real) buildProduction();
  }
  console.log(`RAGAS after an answer, median of ${RUNS}, always retrieve; machine load as it was (see the report).`);
  const served = await serveDir(E2E_DIR);
  try {
    console.log(HEADER.join('\n'));
    const question = 'Why does the sea have tides?';
    await engine({
      name: 'web-llm double, WebGPU (SwiftShader)',
      url: `${served.url}?modelPack=tiny&mode=always`,
      webgpu: true,
      question,
      timeout: 300_000,
    });
    await engine({
      name: 'llama.cpp, tiny chat GGUF',
      url: `${served.url}?modelPack=tiny&engine=wllama&gguf=models/tiny-gguf/chat.gguf&mode=always`,
      webgpu: false,
      question,
      timeout: 300_000,
    });
  } finally {
    await served.close();
  }
  if (!real) return;
  const { SITE_GGUF, realSite, rustBook } = await import('../test/real/site');
  const realServed = await serveDir(realSite(PROD_DIR, 'ragas-wait-site'));
  try {
    const book = rustBook();
    await engine({
      name: 'llama.cpp, Qwen2.5-Coder-0.5B (Coder-tuned), Rust book ch09',
      url: `${realServed.url}?modelPack=real&engine=wllama&gguf=${SITE_GGUF.qwen05}&mode=always`,
      webgpu: false,
      question: 'How do I pass an error up to the calling function instead of handling it myself?',
      files: [
        `${book}/ch09-02-recoverable-errors-with-result.html`,
        `${book}/ch09-01-unrecoverable-errors-with-panic.html`,
      ],
      timeout: 1_800_000,
    });
  } finally {
    await realServed.close();
  }
}
