// The vector search engine has its own room beside the Self-RAG core: the core's decoding never
// reaches for an index, and the engine needs nothing from the core but its shared helpers (hashes).
// Both stay pure, so the engine runs in Node, in a worker and in the build scripts alike.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm),
  ].map((m) => m[1] ?? m[2] ?? m[3]!);
}

function targets(room: string): string[] {
  return sources(join(SRC, room)).flatMap((file) =>
    imports(file).map(
      (spec) => `${relative(SRC, file)} → ${spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec)) : spec}`,
    ),
  );
}

describe('src/vector is the vector search engine, beside the core', () => {
  it('src/core does not import the engine', () => {
    expect(targets('core').filter((t) => / → vector\//.test(t))).toEqual([]);
  });

  it('the engine imports only itself and the core: no library, app, UI, worker or package', () => {
    const all = targets('vector');
    expect(all.length).toBeGreaterThan(5);
    expect(all.filter((t) => !/ → (vector|core)\//.test(t))).toEqual([]);
  });

  it('uses no browser or worker globals', () => {
    const used: string[] = [];
    for (const file of sources(join(SRC, 'vector'))) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const m of code.matchAll(
        /\b(window|document|navigator|self|postMessage|importScripts|localStorage|indexedDB|fetch)\b(?=\s*[.(])/g,
      )) {
        used.push(`${relative(SRC, file)}: ${m[1]}`);
      }
    }
    expect(used).toEqual([]);
  });
});
