import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { ocrAssets } from './vite.ocr';

// The service worker and web app manifest (vite-plugin-pwa over Workbox's generateSW).
// Everything the built site can load later is precached at install, so the page works
// offline after one visit: the shell, every lazily loaded chunk (workers, pdfjs, the
// evaluation page) and every .wasm file, whoever added it. Model weights are NOT
// precached: they stay in the caches of the libraries that download them (web-llm's
// `webllm/*` caches, transformers.js' `transformers-cache`, wllama's OPFS), which
// already serve them offline; only the small JSON manifests of a local model pack are
// kept here, so the page still finds the pack with the network off. The OCR engine (about
// 7 MB, vite.ocr.ts) is not precached either: only a reader who drops a scan downloads it,
// and the service worker keeps it from that first use on (cache first, below).

/** Largest file the precache takes: wllama's wasm is 8.8 MB, ORT's about 25 MB. */
const PRECACHE_MAX_BYTES = 64 * 1024 * 1024;

const THEME_COLOUR = '#2d5bd7';

const pwaOptions: Partial<VitePWAOptions> = {
  // The page registers the worker itself (src/app/browser/service-worker.ts) and asks before switching versions.
  injectRegister: false,
  registerType: 'prompt',
  manifest: {
    name: 'Self-RAG in your browser',
    short_name: 'Self-RAG',
    description: 'Ask questions about your own documents, answered entirely inside your browser.',
    start_url: './',
    scope: './',
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: '#ffffff',
    icons: [
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{html,js,mjs,css,wasm,svg,png,json,jsonl,md,txt,webmanifest}'],
    // Model packs can be gigabytes and have their own caches (so has the critic the site ships, in
    // transformers.js' cache once it first loads); the sample documents are read once,
    // into the library, on a first visit (which is online); embed.json is the host's own setting,
    // edited after the build (network first, below); source maps are for debugging only.
    globIgnores: [
      'models/**',
      'critic/**',
      'sample/**',
      'ocr/**',
      'assets/ocr.worker-*',
      'embed.json',
      '**/*.map',
      'sw.js',
      'workbox-*.js',
    ],
    maximumFileSizeToCacheInBytes: PRECACHE_MAX_BYTES,
    // Links carry the question and settings in the query: any navigation gets the cached shell.
    navigateFallback: 'index.html',
    navigateFallbackDenylist: [/\/models\//, /\/critic\//],
    ignoreURLParametersMatching: [/.*/],
    cleanupOutdatedCaches: true,
    // A new version waits until the user accepts it: an open page never mixes two builds.
    skipWaiting: false,
    clientsClaim: false,
    runtimeCaching: [
      {
        // The OCR worker and engine, on first use: the worker's name carries its hash and the engine's
        // path its versions, so a cached file never goes stale.
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin &&
          (url.pathname.includes('/ocr/tesseract-') || /\/assets\/ocr\.worker-[\w-]+\.js$/.test(url.pathname)),
        handler: 'CacheFirst',
        options: { cacheName: 'ocr-engine', expiration: { maxEntries: 20 } },
      },
      {
        // How the page finds a local pack (models/evaluator-pack.json, models/webllm/app-config.json,
        // models/<id>/config.json): the network first so a new pack is seen, the last copy offline.
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin && /\/models\/(.*\/)?(evaluator-pack|app-config|config)\.json$/.test(url.pathname),
        handler: 'NetworkFirst',
        options: { cacheName: 'model-pack-manifests', networkTimeoutSeconds: 5, expiration: { maxEntries: 200 } },
      },
      {
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.endsWith('/embed.json'),
        handler: 'NetworkFirst',
        options: { cacheName: 'site-settings', networkTimeoutSeconds: 5 },
      },
    ],
  },
};

// The dev server (`npm start`) injects each stylesheet as an inline <style> element for hot
// reload, which the page's policy (`style-src 'self'`) rightly blocks. Only while serving, and
// only that one directive, gains 'unsafe-inline'; every other directive is the built site's,
// and the built index.html keeps the strict policy byte for byte (test/browser/dev-server.test.ts).
const DEV_STYLE_SRC = "style-src 'self' 'unsafe-inline'";
function devInlineStyles(): Plugin {
  return {
    name: 'selfrag:dev-inline-styles',
    apply: 'serve',
    transformIndexHtml(html) {
      if (!html.includes("style-src 'self';"))
        throw new Error(
          "index.html's Content-Security-Policy no longer has \"style-src 'self';\": update devInlineStyles in vite.config.ts.",
        );
      return html.replace("style-src 'self';", `${DEV_STYLE_SRC};`);
    },
  };
}

// `base: './'` lets the built site run from any host or sub-path (and inside an iframe).
export default defineConfig(({ mode }) => ({
  base: './',
  plugins: [react(), wasm(), ocrAssets(), VitePWA(pwaOptions), devInlineStyles()],
  worker: { format: 'es', plugins: () => [wasm()] },
  // The e2e build runs the real generator worker around a scripted engine (test/doubles); never in production.
  resolve: {
    alias:
      mode === 'e2e'
        ? [
            {
              find: /^\.\/webllm\/engine-factory$/,
              replacement: fileURLToPath(new URL('./test/doubles/engine-factory.ts', import.meta.url)),
            },
          ]
        : [],
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Every browser this app runs in (es2022, WebGPU or WebAssembly) supports <link rel=modulepreload>.
    modulePreload: { polyfill: false },
    // Everything the first screen imports statically goes into the one entry chunk (index-*.js)
    // instead of a dozen small shared chunks, each compressed alone (about 6 KB more gzipped).
    // What loads later (panels, pages, engines) stays in its own chunks. The e2e build has
    // several pages as entries and keeps the default split.
    ...(mode === 'e2e'
      ? {}
      : {
          rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial' as const] }] } } },
        }),
    // The e2e test build also carries test-only pages (never in the production build).
    ...(mode === 'e2e'
      ? {
          rollupOptions: {
            input: {
              main: 'index.html',
              evaluator: 'test/browser/pages/evaluator.html',
              generator: 'test/browser/pages/generator.html',
              library: 'test/browser/pages/library.html',
              wllama: 'test/browser/pages/wllama.html',
              embedBench: 'test/browser/pages/embed-bench.html',
              scan: 'test/browser/pages/scan.html',
            },
          },
        }
      : {}),
  },
}));
