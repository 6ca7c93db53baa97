// HTML reduced to the text a reader reads, with htmlparser2, a tokenizer that builds no DOM:
// nothing in the document (scripts, event handlers, images, styles) can run or load. The same
// code runs in the browser and in the Node indexer, so both see the same text.
//
// As reader views do, a page keeps only its content: where it marks a `<main>` (or
// role="main"), only that; everywhere, menus, navigation, pop-ups, buttons and hidden
// elements are dropped (html-chrome.ts). A page with neither is kept whole. Whitespace is
// read as a browser lays it out: the source's line wrapping inside a paragraph is a space,
// blocks (paragraphs, list items, rows, headings) end lines, and `<pre>` keeps its lines
// and indentation as written.
import { Parser } from 'htmlparser2';
import type { HeadingMark } from '../../core/source-location';
import { isAnchorMark, isChrome, isMain, isNeverText, isSection } from './html-chrome';
import { normaliseNewlines } from './validate';

const BLOCK = new Set(
  'address article aside blockquote caption dd details div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot tr ul'.split(
    ' ',
  ),
);
const CELL = new Set(['td', 'th']);
const HEADING = /^h([1-6])$/;

/** Stand-ins for the whitespace of preformatted text while the flow text's spaces are settled. */
const PRE_SPACE = '\uE000';
const PRE_TAB = '\uE001';
const PRE_NEWLINE = '\uE002';
const PRIVATE = /[\uE000-\uE002]/g;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

interface Frame {
  /** This element starts a region whose text is not kept (chrome, hidden, never text). */
  drops: boolean;
  main: boolean;
  section: boolean;
  pre: boolean;
  anchor: boolean;
}

interface Found {
  level: number;
  title: string;
  inMain: boolean;
}

/** The text being assembled: everything kept, and what of it stands inside `<main>`. */
class Output {
  readonly all: string[] = [];
  readonly main: string[] = [];
  sawMain = false;
  push(s: string, inMain: boolean): void {
    this.all.push(s);
    if (inMain) this.main.push(s);
  }
}

export function parseHtml(source: string): { text: string; title?: string; headings?: HeadingMark[] } {
  const out = new Output();
  const found: Found[] = [];
  const stack: Frame[] = [];
  let dropped = 0;
  let mainDepth = 0;
  let sectionDepth = 0;
  let preDepth = 0;
  let anchorDepth = 0;
  // Set when a <pre> opens: a line break right after its tag is not part of its text (as in browsers).
  let preFresh = false;
  let heading: Found | null = null;
  let inTitle = false;
  let title = '';
  let h1Depth = 0;
  let h1 = '';
  let h1Done = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'title') inTitle = true;
        const main = isMain(name, attribs);
        // A header or footer outside any section is the site's banner or footer, not the page's.
        const siteBand = (name === 'header' || name === 'footer') && sectionDepth === 0 && mainDepth === 0;
        const drops = isNeverText(name) || siteBand || isChrome(name, attribs);
        const frame: Frame = { drops, main, section: isSection(name), pre: name === 'pre', anchor: name === 'a' };
        stack.push(frame);
        if (drops) dropped++;
        if (main) {
          mainDepth++;
          if (dropped === 0) out.sawMain = true;
        }
        if (frame.section) sectionDepth++;
        if (frame.pre) {
          preDepth++;
          preFresh = true;
        }
        if (frame.anchor) anchorDepth++;
        if (dropped > 0) return;
        if (name === 'br') out.push(preDepth > 0 ? PRE_NEWLINE : '\n', mainDepth > 0);
        else if (BLOCK.has(name)) out.push('\n\n', mainDepth > 0);
        else if (CELL.has(name)) out.push(' ', mainDepth > 0);
        if (name === 'h1' && !h1Done) h1Depth++;
        const h = HEADING.exec(name);
        if (h) heading = { level: Number(h[1]), title: '', inMain: mainDepth > 0 };
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        const frame = stack.pop();
        if (!frame) return;
        if (dropped === 0) {
          if (BLOCK.has(name)) out.push('\n\n', mainDepth > 0);
          else if (CELL.has(name)) out.push(' ', mainDepth > 0);
          if (name === 'h1' && h1Depth > 0 && --h1Depth === 0) h1Done = true;
          if (heading && HEADING.test(name)) {
            const t = squash(heading.title);
            if (t) found.push({ ...heading, title: t });
            heading = null;
          }
        }
        if (frame.drops) dropped--;
        if (frame.main) mainDepth--;
        if (frame.section) sectionDepth--;
        if (frame.pre) preDepth--;
        if (frame.anchor) anchorDepth--;
      },
      ontext(raw) {
        // The title lives in <head>, whose text is otherwise not kept.
        if (inTitle) title += raw;
        if (dropped > 0) return;
        if (anchorDepth > 0 && isAnchorMark(raw)) return;
        let text = raw.replace(PRIVATE, '');
        if (preDepth > 0) {
          if (preFresh) text = text.replace(/^\n/, '');
          preFresh = false;
          out.push(text.replace(/ /g, PRE_SPACE).replace(/\t/g, PRE_TAB).replace(/\n/g, PRE_NEWLINE), mainDepth > 0);
          return;
        }
        const flow = text.replace(/[\s\u00a0]+/g, ' ');
        out.push(flow, mainDepth > 0);
        if (h1Depth > 0) h1 += flow;
        if (heading) heading.title += flow;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(normaliseNewlines(source));
  parser.end();

  // The page's main content when it marks one that holds text; else everything kept.
  const mainText = out.sawMain ? settle(out.main) : '';
  const useMain = /[\p{L}\p{N}]/u.test(mainText);
  const text = useMain ? mainText : settle(out.all);
  // <title> is raw text to the tokenizer: markup written inside it is not what a reader sees.
  const titleText = title.includes('<') ? parseHtml(title).text : title;
  const name = squash(titleText) || squash(h1);
  const headings = placeHeadings(
    text,
    found.filter((h) => !useMain || h.inMain),
  );
  return { text, ...(name ? { title: name } : {}), ...(headings.length ? { headings } : {}) };
}

/** Flow text's spaces settled around line breaks, at most one blank line between blocks, preformatted text restored. */
function settle(pieces: string[]): string {
  return pieces
    .join('')
    .replace(/ +/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\uE000/g, ' ')
    .replace(/\uE001/g, '\t')
    .replace(/\uE002/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Each heading at its first occurrence after the previous one; one the text does not hold as read is left out. */
function placeHeadings(text: string, found: Found[]): HeadingMark[] {
  const out: HeadingMark[] = [];
  let cursor = 0;
  for (const h of found) {
    const at = text.indexOf(h.title, cursor);
    if (at < 0) continue;
    out.push({ level: h.level, title: h.title, start: at });
    cursor = at + h.title.length;
  }
  return out;
}
