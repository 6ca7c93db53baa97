// Shared plumbing for browser tests: the system Chromium driven by playwright-core,
// a static server on loopback, and the two builds under test (production and e2e).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { staticReply } from '../doubles/static-host';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const E2E_DIR = join(ROOT, 'dist-test');
export const PROD_DIR = join(ROOT, 'dist');
export const OUTPUT_DIR = join(ROOT, 'test-output');
const TINY_MODELS = join(ROOT, 'test/fixtures/models');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium hammers the closed network here.
const BASE_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
// WebGPU through SwiftShader: the only adapter a GPU-less machine has (DESIGN.md).
const WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** Launches the system Chromium. A missing browser is a failure, never a silent skip. */
export async function launchBrowser(opts: { webgpu?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `BROWSER TESTS CANNOT RUN: no Chromium at ${CHROMIUM}. ` +
        'Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH). .ci/run installs it.',
    );
  }
  const webgpu = opts.webgpu ?? true;
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...BASE_FLAGS, ...(webgpu ? WEBGPU_FLAGS : ['--disable-gpu'])],
  });
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.bin': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export interface Served {
  /** Base URL of the served directory, ending in '/' (includes the prefix). */
  url: string;
  /** Every path requested, in order (for asserting what a page fetched). */
  requests: string[];
  /** What each answered request sent: path, the Range asked for (if any) and the body bytes (0 for HEAD). */
  sent: Array<{ path: string; range: string | null; bytes: number }>;
  close(): Promise<void>;
}

/**
 * Serves a directory on 127.0.0.1 (a secure context), optionally under a sub-path prefix like
 * '/apps/rag/', answering as a static host does (test/doubles/static-host.ts: single byte ranges get
 * 206); `delayMs` holds every answer back that long, as a distant host would.
 */
export async function serveDir(
  dir: string,
  opts: {
    prefix?: string;
    headers?: Record<string, string>;
    delayMs?: number;
    /** Files served beside the directory's, by path under the prefix (a model copy a site would ship). */
    extra?: Record<string, string>;
  } = {},
): Promise<Served> {
  const prefix = opts.prefix ?? '/';
  const requests: string[] = [];
  const sent: Served['sent'] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const answer = () => {
      if (!path.startsWith(prefix)) return void res.writeHead(404).end('not under prefix');
      const rel = path.slice(prefix.length);
      const extra = opts.extra?.[rel];
      const reply = extra
        ? staticReply(dirname(extra), basename(extra), req.headers.range ?? null)
        : staticReply(dir, rel, req.headers.range ?? null);
      if (!reply.file) return void res.writeHead(reply.status).end(reply.body);
      // A HEAD answer carries no body (Node drops it): it costs the visitor no download.
      const range = reply.status === 206 ? (req.headers.range ?? null) : null;
      sent.push({ path, range, bytes: req.method === 'HEAD' ? 0 : reply.body.length });
      // content-length lets loaders (transformers.js, web-llm) report byte progress.
      res.writeHead(reply.status, {
        'content-type': MIME[extname(reply.file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...reply.headers,
        ...opts.headers,
      });
      res.end(reply.body);
    };
    if (opts.delayMs) setTimeout(answer, opts.delayMs);
    else answer();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    sent,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

function vite(mode: string, outDir: string): void {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--mode',
      mode,
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      // Vitest sets NODE_ENV=test, which would give both builds React's development runtime
      // (several times slower, StrictMode double renders): build what users get.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
}

/** Builds the e2e test build (test doubles swapped in by `--mode e2e`) with the tiny models under models/. */
export function buildE2E(): string {
  vite('e2e', E2E_DIR);
  if (existsSync(TINY_MODELS)) cpSync(TINY_MODELS, join(E2E_DIR, 'models'), { recursive: true });
  return E2E_DIR;
}

/** Builds the production site exactly as shipped. */
export function buildProduction(): string {
  vite('production', PROD_DIR);
  return PROD_DIR;
}

/** Makes every WebGPU compute pass in the page's evaluator worker throw, as a faulty driver would. */
export async function breakEvaluatorWebGpu(page: Page): Promise<void> {
  const worker = page.workers().find((w) => /evaluator/.test(w.url()));
  if (!worker) throw new Error('The page has no evaluator worker to break.');
  await worker.evaluate(() => {
    const g = globalThis as unknown as { GPUComputePassEncoder: { prototype: { setPipeline: unknown } } };
    g.GPUComputePassEncoder.prototype.setPipeline = () => {
      throw new TypeError("Failed to execute 'setPipeline' (injected by the test)");
    };
  });
}

/**
 * Writes a host page into `dir` that frames the app named by its `?app=` parameter, records every
 * message it gets (`window.replies`), asks with `window.askApp(question)` (reply id `askId`), and
 * pings until the app answers, as a host that may have missed 'ready' would.
 */
export function writeEmbedHost(dir: string, askId: string): void {
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><body><script>
      window.replies = [];
      addEventListener('message', (e) => window.replies.push({ origin: e.origin, data: e.data }));
      const f = document.createElement('iframe');
      f.width = 1000; f.height = 700;
      f.src = new URLSearchParams(location.search).get('app');
      document.body.append(f);
      window.askApp = (q) => f.contentWindow.postMessage({ type: 'ask', question: q, id: ${JSON.stringify(askId)} }, '*');
      const ping = setInterval(() => {
        if (window.replies.some((r) => r.data.type === 'ready' || r.data.type === 'pong')) clearInterval(ping);
        else f.contentWindow.postMessage({ type: 'ping' }, '*');
      }, 250);
    </script></body></html>`,
  );
}
