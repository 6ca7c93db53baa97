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
  title ??= visibleTitle(/^#\s+(.+?)\s*#*\s*$/m.exec(text)?.[1]);
  return title ? { text: text.trim(), title } : { text: text.trim() };
}
