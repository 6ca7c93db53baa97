// The sharded corpus's format is read by the reader, the search and the writer, and reads nothing
// of theirs: format/ imports only its own files and the pure helpers below it, so no import
// circle (as format.ts once had with probe.ts) can come back.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');
const FORMAT = join(SRC, 'library/sharded/format');

function imports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('src/library/sharded/format/', () => {
  it('holds one small file per thing read, and imports only itself, the core, the vector codecs, the word scorer and fflate', () => {
    const files = readdirSync(FORMAT).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const outside = files.flatMap((f) =>
      imports(join(FORMAT, f))
        .map((spec) => (spec.startsWith('.') ? relative(SRC, resolve(FORMAT, spec)) : spec))
        .filter((t) => !/^(library\/sharded\/format\/|core\/|vector\/|library\/lexical\/bm25$|fflate$)/.test(t))
        .map((t) => `${f} → ${t}`),
    );
    expect(outside).toEqual([]);
    for (const f of files) expect(readFileSync(join(FORMAT, f), 'utf8').split('\n').length).toBeLessThan(200);
  });
});
