// The real llama.cpp engine (wllama) in headless Chromium on the tiny GGUF
// models of scripts/make-tiny-gguf.ts, through the wllama worker and the
// WllamaGenerator the app uses. The tiny models' next-token logits are a closed
// form of the current token, so the engine's probabilities are checked exactly.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTinyGguf, tinyGgufLogits, type TinyGguf } from '../../scripts/make-tiny-gguf';
import { DECISION_REPLY, type Form, REL_REPLY, SUP_REPLY, slotSpellings, USE_REPLY } from '../../src/generator/form';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paperSearch } from './app-page';
import { E2E_DIR, PROD_DIR, launchBrowser, serveDir, type Served } from './harness';

const PAGE = 'test/browser/pages/wllama.html';
const MODEL = (v: string) => `../../../models/tiny-gguf/${v}.gguf`;

interface Tok {
  id: number;
  token: string;
  logprob: number;
  top_logprobs: { id: number; logprob: number }[];
}

let browser: Browser;
let served: Served;
let page: Page;
const errors: string[] = [];

const call = <T>(fn: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(
    ([f, a]) =>
      (window as unknown as { wl: Record<string, (...x: unknown[]) => Promise<unknown>> }).wl[f as string]!(
        ...(a as unknown[]),
      ),
    [fn, args] as const,
  ) as Promise<T>;

beforeAll(async () => {
  served = await serveDir(E2E_DIR);
  browser = await launchBrowser({ webgpu: false });
  page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${served.url}${PAGE}`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'loaded');
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

function logSoftmax(logits: Float64Array): Float64Array {
  const max = Math.max(...logits);
  let z = 0;
  for (const l of logits) z += Math.exp(l - max);
  return logits.map((l) => l - max - Math.log(z));
}

/** Each alternative's share of the group (its spellings added up) from the exact logits after token `prev`. */
function exactGroup(model: TinyGguf, prev: number, form: Form): number[] {
  const logits = tinyGgufLogits(model, prev);
  const item = form[0]!;
  if (item.kind !== 'slot') throw new Error('not a reply form');
  const e = slotSpellings(item).map((sp) => sp.reduce((a, w) => a + Math.exp(logits[model.tokenId(w)]!), 0));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** p(alt) / Σ p(group) from the exact logits after token `prev`, one token per alternative. */
function exactAlts(model: TinyGguf, prev: number, alts: readonly string[]): number[] {
  const logits = tinyGgufLogits(model, prev);
  const e = alts.map((a) => Math.exp(logits[model.tokenId(a)]!));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** Every spelling of a reply form's alternatives. */
const spellingsOf = (form: Form): string[] =>
  form.flatMap((it) => (it.kind === 'slot' ? slotSpellings(it).flat() : []));

describe('wllama engine on a tiny GGUF model (prompted mode)', () => {
  const model = buildTinyGguf('chat');

  it('loads a GGUF Blob on the CPU and reads every spelling of every slot alternative as one token of the real vocabulary', async () => {
    const info = await call<{ nVocab: number; threads: number }>('load', MODEL('chat'), { nProbs: 50 });
    expect(info.nVocab).toBe(model.tokens.length);
    const words = [...spellingsOf(REL_REPLY), ...spellingsOf(SUP_REPLY)];
    const ids = await call<number[][]>('tokenIds', words);
    expect(ids).toEqual(words.map((a) => [model.tokenId(a)]));
  });

  it("reports each token's probability exactly as the model's logits give it, and slot probabilities are the group-normalised ones", async () => {
    const { answer, rel, seg } = await call<{
      answer: { text: string; tokens: Tok[] };
      rel: { text: string; tokens: Tok[] };
      seg: Record<string, unknown>;
    }>('rawSegment');
    // Every reported log-prob is the softmax over the whole vocabulary of the exact logits after the previous token.
    for (const reply of [answer, rel]) {
      for (let i = 1; i < reply.tokens.length; i++) {
        const exact = logSoftmax(tinyGgufLogits(model, reply.tokens[i - 1]!.id));
        const t = reply.tokens[i]!;
        expect(t.logprob).toBeCloseTo(exact[t.id]!, 3);
        for (const top of t.top_logprobs.slice(0, 5)) expect(top.logprob).toBeCloseTo(exact[top.id]!, 3);
      }
    }
    // A critique's reply begins after the template's "assistant\n": its first token follows "\n".
    const colon = model.tokenId('\n');
    const near = (got: number[], want: number[]) => got.forEach((g, k) => expect(g).toBeCloseTo(want[k]!, 4));
    const s = seg as {
      rel: { relevant: number; irrelevant: number };
      sup: { full: number; partial: number; none: number };
      use: number[];
      problem?: string;
    };
    expect(s.problem).toBeUndefined();
    near([s.rel.relevant, s.rel.irrelevant], exactGroup(model, colon, REL_REPLY));
    near([s.sup.full, s.sup.partial, s.sup.none], exactGroup(model, colon, SUP_REPLY));
    near(s.use, exactGroup(model, colon, USE_REPLY));
    // Not one-hot: the check above could fail.
    expect(Math.max(...s.use)).toBeLessThan(0.99);
  });

  it('holds every candidate to the form and reuses the shared prompt prefix (timings.cache_n)', async () => {
    const r = await call<{
      segs: { text: string; rel?: unknown; sup?: unknown; use?: unknown; problem?: string }[];
      streamed: string[];
      prefill: { prefilled: number; cached: number };
    }>('segments', 3);
    for (const seg of r.segs) {
      expect(seg.problem).toBeUndefined();
      expect(seg.text.length).toBeGreaterThan(0);
      expect(seg.rel && seg.sup && seg.use).toBeTruthy();
    }
    expect(r.streamed.length).toBeGreaterThan(0);
    // Candidates 2 and 3 share the system prompt, question and answer so far with candidate 1.
    expect(r.prefill.cached).toBeGreaterThan(0);
    expect(r.prefill.prefilled / (r.prefill.prefilled + r.prefill.cached)).toBeLessThan(0.5);
  });

  it('answers the retrieval decision from the exact logits', async () => {
    const d = await call<{ retrieval: number; noRetrieval: number }>('decide');
    const [yes, no] = exactGroup(model, model.tokenId('\n'), DECISION_REPLY);
    expect(d.retrieval).toBeCloseTo(yes!, 4);
    expect(d.noRetrieval).toBeCloseTo(no!, 4);
  });

  it('runs the whole Self-RAG decode loop: an answer with citations and critique probabilities from the engine', async () => {
    const r = await call<{
      best: { text: string; passageId: string | null; rel?: unknown; sup?: unknown; use?: unknown; problem?: string }[];
      candidates: number;
    }>('answer', 'always', 2);
    expect(r.best.length).toBeGreaterThan(0);
    for (const c of r.best) {
      expect(c.passageId).toMatch(/^lyon#/);
      expect(c.rel && c.sup && c.use).toBeTruthy();
    }
    expect(r.candidates).toBeGreaterThanOrEqual(3);
  });

  it('completes one line under the one-line grammar on real llama.cpp, within the token budget, and counts its tokens', async () => {
    const out = await call<{ text: string; promptTokens: number; completionTokens: number }>('completeLine', 12);
    expect(out.text).not.toBe('');
    expect(out.text).not.toContain('\n');
    expect(out.completionTokens).toBeGreaterThan(0);
    expect(out.completionTokens).toBeLessThanOrEqual(12);
    expect(out.promptTokens).toBeGreaterThan(0);
  });

  it('stops at once when aborted, and the next request works', async () => {
    const r = await call<{ aborted: boolean; next: { text: string; problem?: string } }>('abortThenAnswer');
    expect(r.aborted).toBe(true);
    expect(r.next.text.length).toBeGreaterThan(0);
    expect(r.next.problem).toBeUndefined();
  });
});

describe('wllama engine, native Self-RAG model (reflection tokens as single tokens)', () => {
  const model = buildTinyGguf('native');

  it('reads the reflection tokens from the real tokenizer and writes segments with their critiques', async () => {
    await call('load', MODEL('native'), { native: true, nProbs: 50 });
    const ids = await call<number[][]>('tokenIds', ['[Relevant]', '[Utility:5]']);
    expect(ids).toEqual([[model.tokenId('[Relevant]')], [model.tokenId('[Utility:5]')]]);
    const r = await call<{
      segs: { text: string; rel: { relevant: number; irrelevant: number }; use: number[]; problem?: string }[];
    }>('segments', 2);
    for (const seg of r.segs) {
      expect(seg.text).toBe('The answer is here.');
      expect(seg.problem).toBeUndefined();
      const [rel, irr] = exactAlts(model, model.tokenId('</paragraph>'), ['[Relevant]', '[Irrelevant]']);
      expect(seg.rel.relevant).toBeCloseTo(rel!, 4);
      expect(seg.rel.irrelevant).toBeCloseTo(irr!, 4);
    }
  });

  it('writes a multi-segment answer through the decode loop', async () => {
    const r = await call<{ best: { text: string; passageId: string | null }[] }>('answer', 'always', 3);
    expect(r.best.length).toBeGreaterThan(1);
    for (const c of r.best) expect(c.text).toBe('The answer is here.');
  });
});

describe('wllama engine, a model whose output is not valid UTF-8', () => {
  it('gives a clear message, and the page keeps working', async () => {
    await call('load', MODEL('bad-utf8'), { nProbs: 20 });
    const r = await call<{ ok: boolean; kind?: string; message?: string }>('tryAnswer');
    expect(r.ok).toBe(false);
    expect(r.kind).toBe('malformed-output');
    expect(r.message).toMatch(/not valid text/);
    expect(errors).toEqual([]);
  });
});

describe('answer page of the e2e build on llama.cpp, WebGPU switched off ("Auto" engine)', () => {
  // Fresh browser without WebGPU flags: Auto must pick llama.cpp on the CPU. The tiny GGUF model is
  // served by the site (models/tiny-gguf/) and fetched through wllama's URL loader and its OPFS cache.
  const QUERY = '?modelPack=tiny&gguf=models/tiny-gguf/chat.gguf';
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

  async function ask(p: Page, question: string, until: 'done' | 'running' = 'done'): Promise<void> {
    await p.fill('#question', question);
    await p.getByTestId('ask').click();
    if (until === 'running') {
      await p.waitForSelector('[data-status=running]');
      return;
    }
    const view = p.locator('[data-testid=answer], [data-testid=evidence]');
    await p.waitForSelector(':is([data-testid=answer], [data-testid=evidence]):not([data-status=running])', {
      timeout: 120_000,
    });
    expect(`${await view.getAttribute('data-status')}: ${await view.innerText()}`).toMatch(/^done: /);
  }

  it('writes a Self-RAG answer with citations and badges whose probabilities come from the engine; Stop aborts and the next question works', async () => {
    const context = await plain.newContext({ viewport: { width: 1400, height: 1000 } });
    const p = await context.newPage();
    const pageErrors: string[] = [];
    p.on('pageerror', (e) => pageErrors.push(e.message));
    const fetched: string[] = [];
    context.on('request', (r) => fetched.push(r.url()));
    await p.goto(site.url + QUERY);
    await p.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    // No WebGPU here, yet Auto answers with llama.cpp: the panel says so and offers to load, not "unavailable".
    const generator = p.locator('[data-testid=status] [data-worker=generator]');
    await expect.poll(() => generator.innerText(), { timeout: 30_000 }).toMatch(/llama\.cpp on the CPU/);
    expect(await generator.getAttribute('data-state')).toBe('idle');
    expect(await generator.getByTestId('load-model').isVisible()).toBe(true);
    // The tiny model's own decision is "no retrieval" (its logits say so); always retrieve to see citations.
    await p.locator('#mode').selectOption('always');
    await ask(p, 'Why does the sea have tides?');
    expect(await generator.getAttribute('data-device')).toMatch(/^cpu \(llama\.cpp, 1 thread\)/);
    const segments = p.getByTestId('segment');
    expect(await segments.count()).toBeGreaterThan(0);
    const first = segments.first();
    expect(await first.getByTestId('citation').innerText()).toMatch(/passage \d+| › |, pp?\. \d/);
    for (const kind of ['isrel', 'issup', 'isuse']) expect(await first.locator(`[data-badge=${kind}]`).count()).toBe(1);
    await first.locator('[data-badge=isrel]').focus();
    expect(await first.locator('[data-badge=isrel] [role=tooltip]').innerText()).toMatch(/Relevant \d+%/);
    expect(Number(await p.getByTestId('generator-calls').innerText())).toBeGreaterThan(0);
    // The picker says which engine answered; the GGUF model now sits in wllama's storage (OPFS) and can be deleted.
    expect(await p.getByTestId('engine-picker').innerText()).toMatch(/written by llama\.cpp on the CPU/);
    await expect.poll(() => p.getByTestId('gguf').innerText()).toMatch(/downloaded/);

    // Stop mid-answer, then ask again. The tiny model writes a candidate in well under a second, so
    // the answer is made long enough (ten passages a step, six steps) for the click to land mid-answer.
    await p.getByTestId('depth').fill('6');
    await p.getByTestId('k').fill('10');
    // A new thread, so the question is asked standalone (as a follow-up its prompt carries the earlier
    // turn, and the tiny model's random weights may end the answer before the click lands).
    await p.getByTestId('new-thread').click();
    await ask(p, 'How do bees make honey?', 'running');
    await p.getByTestId('stop').click();
    await p.waitForSelector(':is([data-testid=answer], [data-testid=evidence]):not([data-status=running])', {
      timeout: 60_000,
    });
    expect(
      await p
        .locator('[data-testid=answer], [data-testid=evidence]')
        .first()
        .evaluate((e) => `${e.getAttribute('data-status')}: ${(e as HTMLElement).innerText.slice(0, 300)}`),
    ).toMatch(/^stopped/);
    await ask(p, 'Why does the sea have tides?');
    expect(await p.getByTestId('segment').count()).toBeGreaterThan(0);

    await p.getByTestId('gguf-delete').click();
    await p.getByTestId('gguf-delete-confirm').click();
    await expect.poll(() => p.getByTestId('gguf').innerText()).not.toMatch(/downloaded/);

    // Without WebGPU the notice follows the engine: Auto writes on the CPU; a forced WebLLM cannot run and offers llama.cpp.
    expect(await p.getByTestId('no-webgpu').innerText()).toMatch(/written on the CPU with llama\.cpp/);
    expect(await p.getByTestId('use-llama').count()).toBe(0);
    await p.getByTestId('engine').selectOption('webllm');
    await expect
      .poll(() => p.getByTestId('no-webgpu').innerText())
      .toMatch(/WebLLM was chosen .*cannot run without WebGPU/);
    await p.getByTestId('use-llama').click();
    expect(await p.getByTestId('engine').inputValue()).toBe('wllama');
    // The choice is stored: a reload keeps llama.cpp (the address names only the GGUF file).
    await p.reload();
    await p.getByTestId('engine-picker').waitFor();
    expect(await p.getByTestId('engine').inputValue()).toBe('wllama');
    // No CDN: llama.cpp's wasm came from the site, and nothing left it.
    expect(fetched.some((u) => u.startsWith(site.url) && /\/assets\/wllama-[\w-]+\.wasm$/.test(u))).toBe(true);
    expect(fetched.filter((u) => !u.startsWith(site.url) && !/^(blob|data):/.test(u))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

describe('answer page with a native Self-RAG GGUF model', () => {
  it('reads reflection tokens straight from the model and writes a multi-segment answer', async () => {
    const site = await serveDir(E2E_DIR);
    const b = await launchBrowser({ webgpu: false });
    try {
      const p = await b.newPage({ viewport: { width: 1400, height: 1000 } });
      const pageErrors: string[] = [];
      p.on('pageerror', (e) => pageErrors.push(e.message));
      // The paper's full search: today's defaults stop at the first finished answer within 3 candidates.
      await paperSearch(p.context());
      await p.goto(`${site.url}?modelPack=tiny&engine=wllama&gguf=models/tiny-gguf/native.gguf&ggufNative=1`);
      await p.getByTestId('doc').first().waitFor({ timeout: 120_000 });
      await p.locator('#mode').selectOption('always');
      await p.fill('#question', 'Why does the sea have tides?');
      await p.getByTestId('ask').click();
      await p.waitForSelector('[data-testid=answer]:not([data-status=running])', { timeout: 120_000 });
      const texts = await p.$$eval('[data-testid=segment] .segment-text', (els) =>
        els.map((e) => (e as HTMLElement).innerText.trim()),
      );
      expect(texts.length).toBeGreaterThan(1);
      for (const t of texts) expect(t).toBe('The answer is here.');
      expect(await p.getByTestId('segment').first().locator('[data-badge=issup]').innerText()).toMatch(
        /supported|No support/,
      );
      expect(pageErrors).toEqual([]);
    } finally {
      await b.close();
      await site.close();
    }
  });
});

describe('production build', () => {
  it('keeps llama.cpp out of what the page loads first; its wasm ships with the site', () => {
    expect(existsSync(PROD_DIR)).toBe(true); // built by test/setup/builds.ts
    const html = readFileSync(join(PROD_DIR, 'index.html'), 'utf8');
    const first = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\.\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(first.length).toBeGreaterThan(0);
    for (const f of first) expect(readFileSync(join(PROD_DIR, f), 'utf8'), f).not.toContain('setCompat');
    const assets = readdirSync(join(PROD_DIR, 'assets'));
    // …while a lazily loaded chunk carries wllama (so the check above can fail), and the wasm is the site's.
    expect(
      assets.some((f) => f.endsWith('.js') && readFileSync(join(PROD_DIR, 'assets', f), 'utf8').includes('setCompat')),
    ).toBe(true);
    expect(assets.some((f) => /^wllama-[\w-]+\.wasm$/.test(f))).toBe(true);
  });
});
