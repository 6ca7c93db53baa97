import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { fileURLToPath } from 'node:url';

// `base: './'` lets the built site run from any host or sub-path (and inside an iframe).
export default defineConfig(({ mode }) => ({
  base: './',
  plugins: [react(), wasm()],
  worker: { format: 'es', plugins: () => [wasm()] },
  // The e2e build runs the real generator worker around a scripted engine (test/doubles); never in production.
  resolve: {
    alias:
      mode === 'e2e'
        ? [{ find: /^\.\/generator\/engine-factory$/, replacement: fileURLToPath(new URL('./test/doubles/engine-factory.ts', import.meta.url)) }]
        : [],
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // The e2e test build also carries test-only pages (never in the production build).
    ...(mode === 'e2e' ? { rollupOptions: { input: { main: 'index.html', evaluator: 'test/browser/pages/evaluator.html', generator: 'test/browser/pages/generator.html', library: 'test/browser/pages/library.html', wllama: 'test/browser/pages/wllama.html' } } } : {}),
  },
}));
