// One reading of a thrown value: errorMessage and isAbort live in src/core/errors.ts, and the rest of
// the project (the page, the workers, the scripts and benches) imports them, so what a failure
// says and what counts as a user's Stop cannot drift between copies.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const HOME = 'src/core/errors.ts';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'fixtures'
        ? []
        : files(join(dir, e.name))
      : /\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

const sources = ['src', 'workers', 'scripts', 'bench'].flatMap((d) => files(join(ROOT, d)));
const spelling = (re: RegExp) => sources.filter((f) => re.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));

describe('errors are read in one place', () => {
  it(`no source, script or bench but ${HOME} writes "e instanceof Error ? e.message : String(e)"`, () => {
    expect(sources.length).toBeGreaterThan(200);
    expect(spelling(/\b(\w+) instanceof Error \? \1\.message : String\(\1\)/)).toEqual([HOME]);
  });

  it(`no source, script or bench but ${HOME} defines an isAbort`, () => {
    expect(spelling(/\b(function|const|let)\s+isAbort\b/)).toEqual([HOME]);
  });
});
