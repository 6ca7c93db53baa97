// The HTML-to-text pass as it was before pages lost their chrome: every element but scripts and
// styles kept, source line wrapping kept. The "before" row of `npm run bench -- html-main`.
// HTML reduced to its visible text with htmlparser2, a tokenizer that builds no
// DOM: nothing in the document (scripts, event handlers, images, styles) can run
// or load. The same code runs in the browser and in the Node indexer, so both
// see the same text.
import { Parser } from 'htmlparser2';
import type { HeadingMark } from '../../src/core/source-location';
import { normaliseNewlines } from '../../src/library/parse/validate';

// Elements whose content is never text a reader sees.
const HIDDEN = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'select',
  'canvas',
  'video',
  'audio',
]);
const BLOCK = new Set(
  'address article aside blockquote br caption dd details div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot tr ul'.split(
    ' ',
  ),
);
const CELL = new Set(['td', 'th']);

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

const HEADING = /^h([1-6])$/;

export function parseHtml(source: string): { text: string; title?: string; headings?: HeadingMark[] } {
  const out: string[] = [];
  // Headings as read, placed in the final text once its spaces are settled.
  const found: Array<{ level: number; title: string }> = [];
  let heading: { level: number; title: string } | null = null;
  let hidden = 0;
  let inTitle = false;
  let title = '';
  let h1Depth = 0;
  let h1 = '';
  let h1Done = false;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (name === 'title') inTitle = true;
        if (HIDDEN.has(name)) hidden++;
        if (BLOCK.has(name)) out.push('\n');
        else if (CELL.has(name)) out.push(' ');
        if (name === 'h1' && !h1Done) h1Depth++;
        const h = HEADING.exec(name);
        if (h && hidden === 0) heading = { level: Number(h[1]), title: '' };
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (BLOCK.has(name)) out.push('\n');
        else if (CELL.has(name)) out.push(' ');
        if (name === 'h1' && h1Depth > 0 && --h1Depth === 0) h1Done = true;
        if (heading && HEADING.test(name)) {
          const title = squash(heading.title);
          if (title) found.push({ level: heading.level, title });
          heading = null;
        }
      },
      ontext(text) {
        // The title lives in <head>, which is otherwise hidden.
        if (inTitle) title += text;
        if (hidden > 0) return;
        out.push(text);
        if (h1Depth > 0) h1 += text;
        if (heading) heading.title += text;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(normaliseNewlines(source));
  parser.end();

  const text = out
    .join('')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  // <title> is raw text to the tokenizer: markup written inside it is not what a reader sees.
  const titleText = title.includes('<') ? parseHtml(title).text : title;
  const name = squash(titleText) || squash(h1);
  const headings = placeHeadings(text, found);
  return { text, ...(name ? { title: name } : {}), ...(headings.length ? { headings } : {}) };
}

/** Each heading at its first occurrence after the previous one; one the text does not hold as read (a line break inside it) is left out. */
function placeHeadings(text: string, found: Array<{ level: number; title: string }>): HeadingMark[] {
  const out: HeadingMark[] = [];
  let cursor = 0;
  for (const h of found) {
    const at = text.indexOf(h.title, cursor);
    if (at < 0) continue;
    out.push({ ...h, start: at });
    cursor = at + h.title.length;
  }
  return out;
}
