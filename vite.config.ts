import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';

// `base: './'` lets the built site run from any host or sub-path (and inside an iframe).
export default defineConfig(({ mode }) => ({
  base: './',
  plugins: [react(), wasm()],
  worker: { format: 'es', plugins: () => [wasm()] },
  build: {
    target: 'es2022',
    sourcemap: true,
    // The e2e test build also carries test-only pages (never in the production build).
    ...(mode === 'e2e' ? { rollupOptions: { input: { main: 'index.html', evaluator: 'test/browser/pages/evaluator.html' } } } : {}),
  },
}));
