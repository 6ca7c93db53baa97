// The UI only renders and sends intents; the evaluation harness lives below it so the page and
// the bench run the same code. This keeps logic from creeping back into src/ui/ and keeps the
// harness free of React and of the page.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');
const UI = join(SRC, 'ui');
const EVAL = join(SRC, 'eval-runner');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm),
  ].map((m) => m[1] ?? m[2] ?? m[3]!);
}

describe('src/ui holds only components and hooks', () => {
  it('every source file is a .tsx component, a hooks module or a stylesheet', () => {
    const stray = files(UI)
      .map((f) => relative(UI, f))
      .filter((f) => !f.endsWith('.tsx') && !f.endsWith('.css') && !/(^|\/)hooks\.ts$/.test(f));
    expect(stray).toEqual([]);
  });

  it('every hooks module exports only hooks (use…)', () => {
    const notHooks: string[] = [];
    for (const f of files(UI).filter((f) => /(^|\/)hooks\.ts$/.test(f))) {
      for (const m of readFileSync(f, 'utf8').matchAll(
        /^export\s+(?:async\s+)?(?:function|const|let|class)\s+(\w+)/gm,
      )) {
        if (!/^use[A-Z]/.test(m[1]!)) notHooks.push(`${relative(UI, f)}: ${m[1]}`);
      }
    }
    expect(notHooks).toEqual([]);
  });
});

describe('src/eval-runner is the harness below the UI', () => {
  const sources = files(EVAL).filter((f) => f.endsWith('.ts') || f.endsWith('.tsx'));

  it('has no components', () => {
    expect(sources.length).toBeGreaterThan(5);
    expect(sources.filter((f) => f.endsWith('.tsx')).map((f) => relative(EVAL, f))).toEqual([]);
  });

  // Below the app: the page hands it its services and settings (app/wiring/eval-sources.ts), so it
  // measures what the page runs without reaching into the app's wiring or its storage.
  it('imports only the core, the vector engine, the library index and itself: no React, nothing from the app, the UI or a model library', () => {
    const outside: string[] = [];
    for (const file of sources) {
      for (const spec of imports(file)) {
        const target = spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec)) : null;
        const ok =
          target !== null &&
          (/^(core|vector|eval-runner)\//.test(target) || /^library\/(index-host|ingest)$/.test(target));
        if (!ok) outside.push(`${relative(EVAL, file)} → ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
