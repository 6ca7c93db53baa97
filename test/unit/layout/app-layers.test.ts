// Inside src/app the rooms are layers and every import points down:
//   persist < state < view < browser < wiring
// persist reads and keeps untrusted data (settings, links, threads) and owns those shapes; state
// holds the stores and their pure transitions over them; view words and decides from state;
// browser does the browser's effects (capabilities, the service worker, the storage estimate)
// and may word what it finds; wiring runs everything and puts it together. A type lives in the
// lowest room that needs it, so an import that points up means a type or an effect in the wrong
// room. Read with the TypeScript parser: static imports, re-exports, `import()` and
// `import('…')` types all count, type-only ones too.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const APP = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/app');
const LAYERS = ['persist', 'state', 'view', 'browser', 'wiring'] as const;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier a source names: imports, re-exports, dynamic imports and import types. */
function specifiers(name: string, text: string): string[] {
  const sf = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const lit = node.argument.literal;
      if (ts.isStringLiteral(lit)) out.push(lit.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const room = (path: string): string => relative(APP, path).split('/')[0]!;

/** `from → to` for each import inside src/app that crosses into a room at or above its own. */
function upward(file: string, text: string): string[] {
  const from = room(file);
  return specifiers(file, text)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec))
    .filter((target) => !relative(APP, target).startsWith('..') && room(target) !== from)
    .filter((target) => LAYERS.indexOf(room(target) as never) >= LAYERS.indexOf(from as never))
    .map((target) => `${relative(APP, file)} → ${relative(APP, target)}`);
}

describe('src/app: layers that point down', () => {
  it('every room is one of the layers', () => {
    const rooms = readdirSync(APP, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(rooms.sort()).toEqual([...LAYERS].sort());
    expect(files(APP).filter((f) => dirname(f) === APP)).toEqual([]);
  });

  it('no import points up (or sideways) between rooms', () => {
    const all = files(APP);
    expect(all.length).toBeGreaterThan(80);
    const crossing = all.flatMap((f) =>
      specifiers(f, readFileSync(f, 'utf8')).filter(
        (s) => s.startsWith('.') && room(resolve(dirname(f), s)) !== room(f),
      ),
    );
    // The check has something to check: the rooms do import each other, downwards.
    expect(crossing.length).toBeGreaterThan(50);
    expect(all.flatMap((f) => upward(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('catches each kind of import that points up', () => {
    const file = join(APP, 'state/example.ts');
    const text = [
      "import { a } from '../wiring/a';",
      "import type { B } from '../view/b';",
      "export { c } from '../browser/c';",
      "const d = () => import('../wiring/d');",
      "type E = typeof import('../view/e');",
      "import { f } from '../persist/f';",
      "import { g } from './g';",
      "import { h } from '../../core/h';",
    ].join('\n');
    expect(upward(file, text)).toEqual([
      'state/example.ts → wiring/a',
      'state/example.ts → view/b',
      'state/example.ts → browser/c',
      'state/example.ts → wiring/d',
      'state/example.ts → view/e',
    ]);
  });
});
