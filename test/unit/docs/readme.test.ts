// The README is a newcomer's first page: it stays short, and every link and command in it is true.
// The pages under docs/ are checked the same way, so a moved heading or file cannot leave a dead link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const MAX_README_LINES = 300;

/** Markdown without its fenced code blocks, whose brackets are code, not links. */
const prose = (md: string) => md.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The scripts `npm run` knows. */
const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
);

/** `npm run <name>` commands a Markdown text names whose script does not exist. */
const unknownScripts = (md: string) =>
  [...md.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1] as string).filter((n) => !SCRIPTS.includes(n));

const anchorsOf = (file: string) =>
  new Set(
    prose(readFileSync(file, 'utf8'))
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ''))),
  );

/** Relative links ([text](target)) in a Markdown file; web addresses are left alone. */
function relativeLinks(file: string): string[] {
  const links = [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  return links.filter((l) => !/^[a-z]+:/i.test(l));
}

/** Why a link does not resolve, or null when it does. */
function deadLink(from: string, link: string): string | null {
  const [path = '', anchor] = link.split('#');
  const target = path === '' ? from : resolve(dirname(from), path);
  const where = `${relative(ROOT, from)} → ${link}`;
  if (!existsSync(target)) return `${where}: no file ${relative(ROOT, target)}`;
  if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
    return `${where}: no heading with the anchor #${anchor}`;
  }
  return null;
}

describe('README', () => {
  const text = readFileSync(README, 'utf8');

  it(`fits on a few screens (at most ${MAX_README_LINES} lines)`, () => {
    expect(text.split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('links to the docs pages, and every relative link resolves', () => {
    const links = relativeLinks(README);
    expect(links.filter((l) => l.startsWith('docs/')).length).toBeGreaterThan(0);
    expect(links.map((l) => deadLink(README, l)).filter(Boolean)).toEqual([]);
  });

  it('names only npm scripts that exist', () => {
    expect(text).toMatch(/npm run \w/);
    expect(unknownScripts(text)).toEqual([]);
  });

  it('links every page under docs/', () => {
    const linked = new Set(relativeLinks(README).map((l) => l.split('#')[0]));
    const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md'));
    expect(pages.filter((p) => !linked.has(`docs/${p}`))).toEqual([]);
  });
});

describe('docs/', () => {
  for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
    it(`${page}: every relative link resolves and every npm script named exists`, () => {
      const file = join(DOCS, page);
      expect(
        relativeLinks(file)
          .map((l) => deadLink(file, l))
          .filter(Boolean),
      ).toEqual([]);
      expect(unknownScripts(readFileSync(file, 'utf8'))).toEqual([]);
    });
  }
});
