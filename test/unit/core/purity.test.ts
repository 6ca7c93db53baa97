// The core is what lets every algorithm run in Node with fake ports and lets a user
// swap models: it must never reach for a model library, React, the DOM or a worker.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/core');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('src/core stays pure', () => {
  const files = sources(CORE);

  it('imports only other core modules', () => {
    const outside: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)) {
        const spec = m[1] ?? m[2]!;
        const target = spec.startsWith('.') ? resolve(dirname(file), spec) : spec;
        if (!spec.startsWith('.') || relative(CORE, target).startsWith('..'))
          outside.push(`${relative(CORE, file)} → ${spec}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });

  it('uses no browser or worker globals', () => {
    const used: string[] = [];
    for (const file of files) {
      // Comments may talk about the browser; code may not use it.
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const m of code.matchAll(
        /\b(window|document|navigator|self|postMessage|importScripts|localStorage|indexedDB|fetch)\b(?=\s*[.(])/g,
      )) {
        used.push(`${relative(CORE, file)}: ${m[1]}`);
      }
    }
    expect(used).toEqual([]);
  });
});
