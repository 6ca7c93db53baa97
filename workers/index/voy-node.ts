// Loads voy's wasm from node_modules, for the indexer CLI, tests and benches.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadVoy } from './voy-index';

export function loadVoyInNode(): Promise<void> {
  const path = createRequire(import.meta.url).resolve('voy-search/voy_search_bg.wasm');
  return loadVoy(() => readFile(path));
}
