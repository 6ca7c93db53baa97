// Worker entries import src/ (the domain code and the protocol types they implement); src/ never
// imports workers/, types included: each worker channel's types live in a protocol file under
// src/ (src/evaluator/protocol.ts, src/library/protocol/). Spawning a worker by URL is not an import.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = join(ROOT, 'src');
const WORKERS = join(ROOT, 'workers');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('src/ does not depend on workers/', () => {
  it('no module under src/ imports from workers/, not even a type', () => {
    const sources = files(SRC);
    const into: string[] = [];
    for (const file of sources) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const m of code.matchAll(
        /\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm,
      )) {
        const spec = m[1] ?? m[2] ?? m[3]!;
        if (spec.startsWith('.') && !relative(WORKERS, resolve(dirname(file), spec)).startsWith('..'))
          into.push(`${relative(ROOT, file)} → ${spec}`);
      }
    }
    expect(sources.length).toBeGreaterThan(50);
    expect(into).toEqual([]);
  });

  it('the BM25 word index and its tokenizer are library code, not a worker adapter', () => {
    const adapters = files(WORKERS).map((f) => relative(WORKERS, f));
    expect(adapters.filter((f) => /lexical|tokeni[sz]e/.test(f))).toEqual([]);
    expect(
      files(join(SRC, 'library/lexical'))
        .map((f) => relative(SRC, f))
        .sort(),
    ).toEqual([
      'library/lexical/bm25.ts',
      'library/lexical/byte-pool.ts',
      'library/lexical/grown.ts',
      'library/lexical/id-table.ts',
      'library/lexical/lexical-index.ts',
      'library/lexical/term-chains.ts',
      'library/lexical/term-hash.ts',
      'library/lexical/tokenize.ts',
      'library/lexical/varint.ts',
      'library/lexical/word-snapshot.ts',
    ]);
  });
});
