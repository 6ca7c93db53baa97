// One FNV-1a: the test doubles hash with src/core/fnv1a.ts, as the product does, so a change to it
// (a new format version) cannot leave a double hashing another way unnoticed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FNV_OFFSET, FNV_PRIME } from '../../../src/core/fnv1a';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

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

/** Each constant as it may be written: decimal, hexadecimal. */
const spellings = [FNV_OFFSET, FNV_PRIME].flatMap((n) => [
  new RegExp(`\\b${n}\\b`),
  new RegExp(`\\b0x0*${n.toString(16)}\\b`, 'i'),
]);

describe('FNV-1a is written once', () => {
  it('no file under test/ spells its offset basis or prime: the doubles import src/core/fnv1a.ts', () => {
    const sources = files(join(ROOT, 'test'));
    const found = sources.filter((f) => spellings.some((re) => re.test(readFileSync(f, 'utf8'))));
    expect(sources.length).toBeGreaterThan(100);
    expect(found.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
