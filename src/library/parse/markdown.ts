// Markdown is kept as written: the markup is mostly punctuation the embedder
// ignores, and the passage a citation shows should read like the source.
import { visibleTitle } from './title';
import { normaliseNewlines } from './validate';

export function parseMarkdown(source: string): { text: string; title?: string } {
  let text = normaliseNewlines(source);
  // YAML front matter is metadata, not content; its title is still useful.
  let title: string | undefined;
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (front) {
    const m = /^title:\s*["']?(.+?)["']?\s*$/m.exec(front[1] ?? '');
    title = visibleTitle(m?.[1]);
    text = text.slice(front[0].length);
  }
  title ??= visibleTitle(firstHeading(text));
  return title ? { text: text.trim(), title } : { text: text.trim() };
}

/**
 * The first level-one heading, written either way Markdown allows: `# Title`, or the title
 * underlined with `===` (Setext, as many READMEs are, PyYAML's among them). Failing both, the
 * first Setext level-two heading (`---` under a line of text), which such READMEs often start with.
 */
function firstHeading(text: string): string | undefined {
  const atx = /^#\s+(.+?)\s*#*\s*$/m.exec(text);
  const setext1 = /^([^\s#>\-*=|`][^\n]*?)\s*\n=+\s*$/m.exec(text);
  const first = [atx, setext1].filter((m): m is RegExpExecArray => m !== null).sort((a, b) => a.index - b.index)[0];
  if (first) return first[1];
  return /^([^\s#>\-*=|`][^\n]*?)\s*\n-{3,}\s*$/m.exec(text)?.[1];
}
