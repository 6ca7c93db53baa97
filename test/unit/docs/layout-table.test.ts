// The README's layout table is a newcomer's map of the folders: every folder of the tree has a row,
// every row's path exists, and every file or folder a row names is under that path.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
/** Build output and downloads (git-ignored), never part of the layout. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'dist-test', 'test-output']);
/** Folders whose subfolders each get a row of their own. */
const SPLIT = ['src', 'test'];

/** The rows of the README's "## Layout" table: the path, and what the row says lives there. */
function layoutRows(): { path: string; text: string }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)].map((m) => ({ path: m[1]!, text: m[2]! }));
}

const dirs = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_SOURCE.has(e.name))
    .map((e) => (dir ? `${dir}/${e.name}/` : `${e.name}/`));

/** Every path under `dir`, relative to it. */
function tree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? [`${e.name}/`, ...tree(full).map((p) => `${e.name}/${p}`)] : [e.name];
  });
}

describe('the README layout table', () => {
  const rows = layoutRows();

  it('has a row for every folder of the tree (src/ and test/ by their subfolders)', () => {
    const expected = [...dirs('').filter((d) => !SPLIT.includes(d.slice(0, -1))), ...SPLIT.flatMap((d) => dirs(d))];
    const listed = new Set(rows.map((r) => r.path));
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.filter((d) => !listed.has(d))).toEqual([]);
  });

  it('names only paths that exist', () => {
    expect(rows.filter((r) => !existsSync(join(ROOT, r.path))).map((r) => r.path)).toEqual([]);
  });

  it('names, in each row, only files and folders that are under its path', () => {
    const missing: string[] = [];
    for (const row of rows) {
      const base = join(ROOT, row.path);
      if (!statSync(base).isDirectory()) continue;
      const under = tree(base);
      const named = [...row.text.matchAll(/`([\w./-]+(?:\.(?:ts|tsx|js|json|css|d\.ts)|\/))`/g)].map((m) => m[1]!);
      for (const name of named) {
        const clean = name.replace(/^\.\//, '');
        if (!under.some((p) => p === clean || p.endsWith(`/${clean}`)) && !existsSync(join(ROOT, clean)))
          missing.push(`${row.path}: ${name}`);
      }
    }
    expect(rows.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
