// The UI renders the app's stores and calls its controller and services (src/app/README.md). Beyond
// src/app it may import only what holds no state: the core, the vector engine's types, the model
// catalogues, the evaluation harness, and the library's readers of a drop or a picked folder with
// the recogniser's download size. Never a service, a store of the library, or a worker.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');
const UI = join(SRC, 'ui');
const ALLOWED = [
  /^app\//,
  /^ui\//,
  /^core\//,
  /^vector\/vector-index$/,
  /^generator\/(catalogue|gguf-catalogue)$/,
  /^eval-runner\//,
  /^external\/wikipedia$/,
  /^library\/(drop|folder|ocr\/assets)$/,
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('src/ui reaches past src/app only for code without state', () => {
  it('imports from the library only its drop and folder readers and the OCR download size', () => {
    const outside: string[] = [];
    for (const file of files(UI)) {
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]/g)) {
        const target = relative(SRC, resolve(dirname(file), (m[1] ?? m[2])!)).replace(/\.tsx?$/, '');
        if (!ALLOWED.some((re) => re.test(target))) outside.push(`${relative(SRC, file)} → ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
