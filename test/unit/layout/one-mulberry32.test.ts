// One seeded generator: the product's rotation, the scripts, the benches and the test doubles all
// draw from src/core/mulberry32.ts, so a second copy cannot drift from it (a rotation built by one
// copy and read by another would scramble every compact code without an error).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MULBERRY32_STEP } from '../../../src/core/mulberry32';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const HOME = 'src/core/mulberry32.ts';

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

/** The step constant as it may be written: decimal, hexadecimal. */
const spellings = [
  new RegExp(`\\b${MULBERRY32_STEP}\\b`),
  new RegExp(`\\b0x0*${MULBERRY32_STEP.toString(16)}\\b`, 'i'),
];

describe('the seeded random generator is written once', () => {
  it(`no source, script, bench or test but ${HOME} spells mulberry32's step: they import it`, () => {
    const sources = ['src', 'workers', 'scripts', 'bench', 'test'].flatMap((d) => files(join(ROOT, d)));
    const found = sources
      .filter((f) => spellings.some((re) => re.test(readFileSync(f, 'utf8'))))
      .map((f) => relative(ROOT, f));
    expect(sources.length).toBeGreaterThan(300);
    expect(found).toEqual([HOME]);
  });
});
