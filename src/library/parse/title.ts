// A title is what a reader sees: markup in a heading (raw HTML, Markdown
// emphasis, links, code marks) is dropped, never shown as source.
import { parseHtml } from './html';

const MAX_TITLE = 200;

export function visibleTitle(source: string | undefined): string | undefined {
  if (!source) return undefined;
  const text = parseHtml(source)
    // Images in a heading are badges and logos (README "[![Build][badge]][ci]"): dropped, alt text and all;
    // links, inline or by reference, keep their text.
    .text.replace(/!\[[^\]]*\](\([^)]*\)|\[[^\]]*\])/g, '')
    .replace(/\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])/g, '$1')
    .replace(/(\*\*|__|\*|_|`|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text.slice(0, MAX_TITLE) : undefined;
}
