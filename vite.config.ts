import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';

// `base: './'` lets the built site run from any host or sub-path (and inside an iframe).
export default defineConfig({
  base: './',
  plugins: [react(), wasm()],
  worker: { format: 'es', plugins: () => [wasm()] },
  build: { target: 'es2022', sourcemap: true },
});
