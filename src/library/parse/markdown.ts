// Markdown is kept as written: the markup is mostly punctuation the embedder
// ignores, and the passage a citation shows should read like the source.
import type { HeadingMark } from '../../core/source-location';
import { visibleTitle } from './title';
import { normaliseNewlines } from './validate';

export function parseMarkdown(source: string): { text: string; title?: string; headings?: HeadingMark[] } {
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
  const body = text.trim();
  const headings = markdownHeadings(body);
  return { text: body, ...(title ? { title } : {}), ...(headings.length ? { headings } : {}) };
}

/** ATX headings (`# Title`), outside fenced code blocks, where a `#` line is code. */
export function markdownHeadings(text: string): HeadingMark[] {
  const out: HeadingMark[] = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of text.split('\n')) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (f && (fence === null || f[0] === fence[0])) fence = fence === null ? f : null;
    else if (fence === null) {
      const m = /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
      const title = m ? visibleTitle(m[2]) : undefined;
      if (m && title) out.push({ level: m[1]!.length, title, start: offset });
    }
    offset += line.length + 1;
  }
  return out;
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
