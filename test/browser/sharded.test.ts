// A site's sharded corpus in the browser: the e2e build, served under a sub-path by a static
// server that answers byte ranges, with a corpus of a few thousand passages that the Node
// indexer (`npm run index -- <folder> --sharded`) writes with the same hashed test embedder as
// the library page. A question is answered from it beside the user's own document, fetching a
// small part of the corpus; after that visit the same question is answered offline.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFolder } from '../../scripts/index-folder';
import { SHARDED_VERSION } from '../../src/library/sharded/format/manifest';
import { HashEmbedder } from '../doubles/hash-embedder';
import type { LibraryPageApi } from './pages/library-page';
import { E2E_DIR, ROOT, launchBrowser, serveDir, type Served, writeEmbedHost } from './harness';
import { createEmbedder } from '../../workers/evaluator/embedder';
import { mulberry32 } from '../../src/core/mulberry32';
import { passageTexts } from '../../bench/scale/text';

type Api = LibraryPageApi;
const PREFIX = '/docs/rag/';
const SITE = join(E2E_DIR, 'test/browser/pages/sharded-site');
const CORPUS = join(SITE, 'index');
const FILES = [
  'manifest.json',
  'index.bin',
  'centroids.bin',
  'lists.bin',
  'rows.bin',
  'texts.bin',
  'wordtable.bin',
  'words.bin',
];
let browser: Browser;
let served: Served;
let passages = 0;

function call<K extends keyof Api>(
  page: Page,
  method: K,
  ...args: Parameters<Api[K]>
): Promise<Awaited<ReturnType<Api[K]>>> {
  return page.evaluate(
    ([m, a]) =>
      (window as unknown as { libraryTest: Record<string, (...x: unknown[]) => unknown> }).libraryTest[m]!(...a),
    [method, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<Api[K]>>>;
}

beforeAll(async () => {
  // 300 documents of made-up prose, a dozen paragraphs each; one holds the fact asked about.
  const docs = mkdtempSync(join(tmpdir(), 'sharded-docs-'));
  const words = passageTexts(300 * 12, 3);
  for (let d = 0; d < 300; d++) {
    const paras = Array.from({ length: 12 }, () => words());
    if (d === 137) paras[5] = 'The Zorblax valve of the eastern reservoir opens at dawn and closes at dusk.';
    writeFileSync(join(docs, `doc-${d}.md`), `# Field notes ${d}\n\n${paras.join('\n\n')}\n`);
  }
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(SITE, { recursive: true });
  const built = await indexFolder({
    folder: docs,
    out: CORPUS,
    embedder: new HashEmbedder(256),
    model: 'hash-256',
    chunk: { targetTokens: 60, overlapTokens: 0 },
    sharded: {},
  });
  passages = built.passages;
  rmSync(docs, { recursive: true, force: true });
  browser = await launchBrowser({ webgpu: false });
  served = await serveDir(E2E_DIR, { prefix: PREFIX });
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('a sharded site corpus in the browser', () => {
  let ctx: BrowserContext;
  let page: Page;
  const question = 'When does the Zorblax valve open?';

  it('answers from the corpus beside the user’s own document, by range requests for a small part of it', async () => {
    expect(passages).toBeGreaterThan(2000);
    // The corpus is in the format the writer writes now (RaBitQ codes), not an older one the reader also takes.
    expect(JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8'))).toMatchObject({
      version: SHARDED_VERSION,
      codec: 'rabitq+int8',
    });
    ctx = await browser.newContext();
    page = await ctx.newPage();
    await page.goto(`${served.url}test/browser/pages/library.html`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    const opened = await call(page, 'open', {
      dbName: 'sharded',
      seed: false,
      site: 'sharded-site/',
      embedderId: 'hash-256',
    });
    expect(opened.warnings).toEqual([]);
    await call(
      page,
      'addText',
      'My kite notes',
      'A kite needs a steady wind of about fifteen kilometres an hour to stay aloft.',
    );

    const [top] = await call(page, 'retrieve', question, 3);
    expect(top).toMatchObject({ title: 'Field notes 137' });
    expect(top!.text).toContain('Zorblax valve');
    const [mine] = await call(page, 'retrieve', 'how much wind does a kite need', 3);
    expect(mine!.title).toBe('My kite notes');

    const corpusPath = `${PREFIX}test/browser/pages/sharded-site/index/`;
    const fetched = served.sent.filter((s) => s.path.startsWith(corpusPath));
    const total = FILES.reduce((s, f) => s + statSync(join(CORPUS, f)).size, 0);
    const bytes = fetched.reduce((s, r) => s + r.bytes, 0);
    // Only the manifest is fetched whole; every block came as a range, and all of it is a small part of the corpus.
    expect(fetched.filter((r) => r.range === null).map((r) => r.path)).toEqual([`${corpusPath}manifest.json`]);
    expect(bytes).toBeLessThan(total / 4);
    expect(await call(page, 'warnings')).toEqual([]);
  });

  it('answers the same question offline after that visit, from the blocks it cached', async () => {
    // The corpus's host goes away (every request to it fails as a network error would); the
    // page itself stays loaded (the app shell offline is offline.test.ts's subject).
    let tried = 0;
    await ctx.route('**/sharded-site/index/**', (route) => {
      tried++;
      return route.abort('internetdisconnected');
    });
    const corpusSent = () => served.sent.filter((s) => s.path.includes('/sharded-site/index/')).length;
    const before = corpusSent();
    // A new library instance: nothing carried over in memory, only what Cache Storage kept.
    await call(page, 'open', { dbName: 'sharded-offline', seed: false, site: 'sharded-site/', embedderId: 'hash-256' });
    const [top] = await call(page, 'retrieve', question, 3);
    expect(top).toMatchObject({ title: 'Field notes 137' });
    expect(top!.text).toContain('Zorblax valve');
    expect(corpusSent()).toBe(before);
    // It did try the network for the manifest (to notice a new build), then fell back to the cache.
    expect(tried).toBeGreaterThan(0);
    expect(await call(page, 'warnings')).toEqual([]);
    await ctx.close();
  });
});

describe('the app embedded in an iframe, with a sharded site corpus', () => {
  it('answers an embedder’s question with a citation into the corpus', async () => {
    // A site = the e2e build (linked) + a sharded index/ embedded with the tiny model the app runs.
    const site = mkdtempSync(join(tmpdir(), 'sharded-app-'));
    for (const entry of readdirSync(E2E_DIR)) symlinkSync(join(E2E_DIR, entry), join(site, entry));
    const docs = mkdtempSync(join(tmpdir(), 'sharded-app-docs-'));
    // Words the tiny embedder knows (its vocabulary includes the shipped sample), in a seeded draw.
    const known = readdirSync(join(ROOT, 'public/sample'))
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) => readFileSync(join(ROOT, 'public/sample', f), 'utf8').match(/\b[a-z]{4,}\b/g) ?? []);
    const pick = mulberry32(9);
    const some = (n: number) => Array.from({ length: n }, () => known[Math.floor(pick() * known.length)]).join(' ');
    const titles = Array.from({ length: 60 }, (_, d) => `${some(3)} ${d}`);
    for (let d = 0; d < 60; d++) {
      const paras = Array.from({ length: 6 }, () => `${some(40)}.`);
      if (d === 41)
        paras[2] = `The Zorblax valve of the eastern reservoir opens at dawn and closes at dusk. ${some(10)}.`;
      writeFileSync(join(docs, `doc-${d}.md`), `# ${titles[d]}\n\n${paras.join('\n\n')}\n`);
    }
    const embedder = createEmbedder({
      model: { id: 'tiny/embedder' },
      source: 'local',
      localModelPath: join(ROOT, 'test/fixtures/models'),
    });
    await indexFolder({
      folder: docs,
      out: join(site, 'index'),
      embedder,
      model: 'tiny/embedder',
      chunk: { targetTokens: 60, overlapTokens: 0 },
      sharded: {},
    });
    await embedder.dispose();
    rmSync(docs, { recursive: true, force: true });
    const appServer = await serveDir(site, { prefix: '/docs/rag/' });
    const parentDir = mkdtempSync(join(tmpdir(), 'sharded-parent-'));
    writeEmbedHost(parentDir, 'z1');
    const parent = await serveDir(parentDir);
    // The site owner's allow-list, beside the page (this site's own file, not the linked build's).
    rmSync(join(site, 'embed.json'), { force: true });
    writeFileSync(join(site, 'embed.json'), JSON.stringify({ allowedOrigins: [new URL(parent.url).origin] }));
    const ctx = await browser.newContext();
    try {
      const host = await ctx.newPage();
      await host.goto(`${parent.url}?app=${encodeURIComponent(`${appServer.url}?modelPack=tiny&rerank=0`)}`);
      type Replies = { replies: { data: { type: string } }[] };
      await host.waitForFunction(
        () => (window as unknown as Replies).replies.some((r) => ['ready', 'pong'].includes(r.data.type)),
        null,
        { timeout: 120_000 },
      );
      await host.evaluate(() =>
        (window as unknown as { askApp(q: string): void }).askApp('When does the Zorblax valve open?'),
      );
      const answer = await host.waitForFunction(
        () => (window as unknown as Replies).replies.find((r) => r.data.type === 'answer' || r.data.type === 'error'),
        null,
        { timeout: 180_000 },
      );
      const reply = (await answer.jsonValue()) as unknown as {
        data: { type: string; segments: { text: string; citation: { passageId: string; title: string } | null }[] };
      };
      expect(reply.data.type).toBe('answer');
      expect(reply.data.segments.map((s) => s.citation?.title)).toContain(titles[41]);
      const corpus = appServer.sent.filter((s) => s.path.startsWith('/docs/rag/index/'));
      expect(corpus.filter((s) => s.range === null).map((s) => s.path)).toEqual(['/docs/rag/index/manifest.json']);
      // The page says the corpus is searched too, and how much of it: not only the library's few passages.
      const frame = host.frames().find((f) => f.url().includes('/docs/rag/'))!;
      await expect
        .poll(() => frame.locator('[data-worker=library]').innerText())
        .toMatch(/Also searched: this site's corpus, 60 documents \([\d,]+ passages\)/);
    } finally {
      await ctx.close();
      await appServer.close();
      await parent.close();
      rmSync(site, { recursive: true, force: true });
      rmSync(parentDir, { recursive: true, force: true });
    }
  });
});
