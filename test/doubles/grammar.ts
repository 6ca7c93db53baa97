// Just enough of xgrammar's EBNF for the test double to honour the grammars the
// generator sends: a root sequence of string literals and rule names, where a
// rule is either an alternation of literals (a reflection slot) or `[^\n]+`
// (free text to the end of the line). Anything else is rejected loudly, as the
// real engine rejects a grammar it cannot compile.

export type GrammarItem =
  | { kind: 'literal'; text: string }
  | { kind: 'choice'; rule: string; alternatives: string[] }
  | { kind: 'line' };

const STRING = /^"(?:[^"\\]|\\.)*"/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*/;

function lex(expr: string): string[] {
  const out: string[] = [];
  let s = expr.trim();
  while (s.length) {
    const m = STRING.exec(s) ?? IDENT.exec(s) ?? /^\[\^\\n\]\+/.exec(s) ?? /^\|/.exec(s);
    if (!m) throw new Error(`Failed to initialize the grammar matcher (test double): cannot read "${s.slice(0, 30)}".`);
    out.push(m[0]);
    s = s.slice(m[0].length).trim();
  }
  return out;
}

export function parseGrammar(grammar: string): GrammarItem[] {
  const rules = new Map<string, string[]>();
  for (const line of grammar.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const at = line.indexOf('::=');
    if (at < 0) throw new Error(`Failed to initialize the grammar matcher (test double): no "::=" in "${line}".`);
    rules.set(line.slice(0, at).trim(), lex(line.slice(at + 3)));
  }
  const root = rules.get('root');
  if (!root) throw new Error('Failed to initialize the grammar matcher (test double): no root rule.');
  if (root.includes('|'))
    throw new Error('Failed to initialize the grammar matcher (test double): root must be a sequence.');
  return root.map((term): GrammarItem => {
    if (term.startsWith('"')) return { kind: 'literal', text: JSON.parse(term) as string };
    const body = rules.get(term);
    if (!body) throw new Error(`Failed to initialize the grammar matcher (test double): undefined rule "${term}".`);
    if (body.length === 1 && body[0] === '[^\\n]+') return { kind: 'line' };
    const alternatives = body.filter((t) => t !== '|');
    if (alternatives.length !== (body.length + 1) / 2 || !alternatives.every((a) => a.startsWith('"'))) {
      throw new Error(
        `Failed to initialize the grammar matcher (test double): rule "${term}" is not a choice of literals.`,
      );
    }
    return { kind: 'choice', rule: term, alternatives: alternatives.map((a) => JSON.parse(a) as string) };
  });
}
