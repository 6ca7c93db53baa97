// HTML reduced to the text a reader reads, with htmlparser2, a tokenizer that builds no DOM:
// nothing in the document (scripts, event handlers, images, styles) can run or load. The same
// code runs in the browser and in the Node indexer, so both see the same text.
//
// As reader views do, a page keeps only its content: where it marks a `<main>` (or
// role="main"), only that; everywhere, menus, navigation, pop-ups, buttons and hidden elements
// are dropped (html-chrome.ts), and so is a block that is nearly all links (a table of contents,
// a site menu). A page with none of these is kept whole, and a page that would lose every word
// keeps them all. Whitespace is read as a browser lays it out: the source's line wrapping inside
// a paragraph is a space, blocks (paragraphs, list items, rows, headings) end lines, and `<pre>`
// keeps its lines and indentation as written.
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
/** Blocks judged by how much of their text is links. */
const LINK_BLOCK = new Set('aside div dl ol p section table td th ul'.split(' '));
/** A block with at least this many links and this share of its letters inside them is navigation. */
const NAV_LINKS = 2;
const NAV_LINK_SHARE = 0.8;
/**
 * Links a page marks as its own navigation (`rel="next"`, "prev", "up", "contents": GNU Texinfo's
 * "Next: …, Previous: …, Up: …" lines): two of them make a block of mostly links navigation.
 */
const NAV_REL = /\b(?:next|prev|previous|up|contents|index|home|first|last|start)\b/i;
const NAV_REL_LINKS = 2;
const NAV_REL_SHARE = 0.5;
/**
 * Letters outside links that a block still keeps once the lists inside it are dropped, from which
 * it holds prose of its own: a sentence, not a menu's heading ("Chapters", "On this page").
 */
const PROSE_LETTERS = 40;
/** A list of links whose targets a later list repeats at least this much is the same list again. */
const REPEAT_SHARE = 0.8;
/** Words that label navigation links: a block of links whose other words are all these is navigation. */
const NAV_LABEL = /^(?:next|previous|prev|up|home|index|contents|top|back|forward|first|last|toc)$/i;

/** Stand-ins for the whitespace of preformatted text while the flow text's spaces are settled. */
const PRE_SPACE = '\uE000';
const PRE_TAB = '\uE001';
const PRE_NEWLINE = '\uE002';
const PRIVATE = /[\uE000-\uE002]/g;
const LETTERS = /[\p{L}\p{N}]/gu;
const NOT_LETTERS = /[^\p{L}\p{N}]+/gu;
const WORDS = /[\p{L}\p{N}]+/gu;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

interface Frame {
  /** This element starts a region whose text is not kept (chrome, hidden, never text). */
  drops: boolean;
  main: boolean;
  section: boolean;
  pre: boolean;
  anchor: boolean;
  /** For a block judged by its links: where its text began, and what it holds. */
  links?: LinkTally;
}

interface LinkTally {
  all: number;
  main: number;
  found: number;
  letters: number;
  linkLetters: number;
  links: number;
  /** Links with a navigation `rel`. */
  relLinks: number;
  /** Letters outside links that are not navigation labels ("Next:", "Up:", "Index"). */
  plainLetters: number;
  /** Letters of blocks inside it that were dropped. */
  droppedInside: number;
  /** Of those, letters inside links. */
  droppedLinkLetters: number;
  /** Link targets it holds (read only when lists are kept, to find a list the page repeats). */
  hrefs: string[];
}

/** A list of links kept when lists are: where its text lies, and where its links go. */
interface KeptList {
  start: number;
  end: number;
  hrefs: string[];
}

interface Found {
  level: number;
  title: string;
  inMain: boolean;
}

export interface ParsedHtml {
  text: string;
  title?: string;
  headings?: HeadingMark[];
}

const hasWords = (r: ParsedHtml) => /[\p{L}\p{N}]/u.test(r.text);

/** A pass's reading, and whether the page's <main> lost most of its words as lists of links. */
type Reading = ParsedHtml & { lostMain?: boolean };

export function parseHtml(source: string): ParsedHtml {
  const normal = normaliseNewlines(source);
  const read = new HtmlReader('all').read(normal);
  if (hasWords(read) && !read.lostMain) {
    const { lostMain: _, ...kept } = read;
    return kept;
  }
  // A page whose content is a list of links (a section's index page, an index): keep the
  // lists, still without the chrome; failing that, every word rather than none.
  const lists = new HtmlReader('keep-lists').read(normal);
  const { lostMain: _, ...kept } = hasWords(lists) ? lists : new HtmlReader('none').read(normal);
  return kept;
}

/** What a pass drops: chrome and navigation by links; chrome only; nothing but what is never text. */
type Rules = 'all' | 'keep-lists' | 'none';

/** One pass of the parser over a page. */
class HtmlReader {
  private readonly all: string[] = [];
  private readonly mainOut: string[] = [];
  private sawMain = false;
  private readonly found: Found[] = [];
  private readonly stack: Frame[] = [];
  /** Open blocks judged by their links, innermost last. */
  private readonly tallies: LinkTally[] = [];
  private dropped = 0;
  /** Lists of links kept in the 'keep-lists' pass, in the order they closed. */
  private readonly keptLists: KeptList[] = [];
  /** Letters of lists of links dropped inside <main>. */
  private mainListLetters = 0;
  private mainDepth = 0;
  private sectionDepth = 0;
  private preDepth = 0;
  private anchorDepth = 0;
  /** Set when a <pre> opens: a line break right after its tag is not part of its text (as in browsers). */
  private preFresh = false;
  private heading: Found | null = null;
  private inTitle = false;
  private title = '';
  private h1Depth = 0;
  private h1 = '';
  private h1Done = false;

  constructor(private readonly rules: Rules) {}

  read(source: string): Reading {
    const parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        onclosetag: (name) => this.close(name),
        ontext: (text) => this.text(text),
      },
      { decodeEntities: true, lowerCaseTags: true },
    );
    parser.write(source);
    parser.end();
    return this.result();
  }

  private push(s: string): void {
    this.all.push(s);
    if (this.mainDepth > 0) this.mainOut.push(s);
  }

  private open(name: string, attribs: Record<string, string>): void {
    if (name === 'title') this.inTitle = true;
    const main = isMain(name, attribs);
    // A header or footer outside any section is the site's banner or footer, not the page's.
    const siteBand = (name === 'header' || name === 'footer') && this.sectionDepth === 0 && this.mainDepth === 0;
    const drops = isNeverText(name) || (this.rules !== 'none' && (siteBand || isChrome(name, attribs)));
    const frame: Frame = { drops, main, section: isSection(name), pre: name === 'pre', anchor: name === 'a' };
    this.stack.push(frame);
    if (drops) this.dropped++;
    if (main) {
      this.mainDepth++;
      if (this.dropped === 0) this.sawMain = true;
    }
    if (frame.section) this.sectionDepth++;
    if (frame.pre) {
      this.preDepth++;
      this.preFresh = true;
    }
    if (frame.anchor) this.anchorDepth++;
    if (this.dropped > 0) return;
    const tally = this.tallies[this.tallies.length - 1];
    // A heading's link to itself (mdBook, rustdoc) is the heading, not a link away.
    if (frame.anchor && 'href' in attribs && tally && !this.heading) {
      tally.links++;
      if (this.rules === 'keep-lists') tally.hrefs.push(attribs.href?.split('#')[0] ?? '');
      if (attribs.rel && NAV_REL.test(attribs.rel)) tally.relLinks++;
    }
    if (LINK_BLOCK.has(name) && this.rules !== 'none') {
      frame.links = {
        all: 0,
        main: 0,
        found: 0,
        letters: 0,
        linkLetters: 0,
        links: 0,
        relLinks: 0,
        plainLetters: 0,
        droppedInside: 0,
        droppedLinkLetters: 0,
        hrefs: [],
      };
      this.tallies.push(frame.links);
    }
    if (name === 'br') this.push(this.preDepth > 0 ? PRE_NEWLINE : '\n');
    else if (BLOCK.has(name)) this.push('\n\n');
    else if (CELL.has(name)) this.push(' ');
    // Where the block's text starts: after its own line break, so dropping it keeps the break.
    if (frame.links)
      Object.assign(frame.links, { all: this.all.length, main: this.mainOut.length, found: this.found.length });
    if (name === 'h1' && !this.h1Done) this.h1Depth++;
    const h = HEADING.exec(name);
    if (h) this.heading = { level: Number(h[1]), title: '', inMain: this.mainDepth > 0 };
  }

  private close(name: string): void {
    if (name === 'title') this.inTitle = false;
    const frame = this.stack.pop();
    if (!frame) return;
    if (this.dropped === 0) {
      if (frame.links) this.judgeLinks(frame.links);
      if (BLOCK.has(name)) this.push('\n\n');
      else if (CELL.has(name)) this.push(' ');
      if (name === 'h1' && this.h1Depth > 0 && --this.h1Depth === 0) this.h1Done = true;
      if (this.heading && HEADING.test(name)) {
        const t = squash(this.heading.title);
        if (t) this.found.push({ ...this.heading, title: t });
        this.heading = null;
      }
    }
    if (frame.drops) this.dropped--;
    if (frame.main) this.mainDepth--;
    if (frame.section) this.sectionDepth--;
    if (frame.pre) this.preDepth--;
    if (frame.anchor) this.anchorDepth--;
  }

  /**
   * Drops a closed block that is nearly all links. Its counts join the block around it either
   * way, so a menu's heading goes with the list of links it heads.
   */
  private judgeLinks(t: LinkTally): void {
    this.tallies.pop();
    const share = t.letters > 0 ? t.linkLetters / t.letters : 0;
    // What it keeps of its own once the lists inside it are gone: prose there means the lists
    // were navigation beside the content (Node's manual: a page's few lines after its site menu).
    const ownPlain = t.letters - t.droppedInside - (t.linkLetters - t.droppedLinkLetters);
    // A list of links (a table of contents, a menu): dropped unless the page is nothing else.
    const isList = t.links >= NAV_LINKS && share >= NAV_LINK_SHARE && ownPlain < PROSE_LETTERS;
    // Links labelled as the page's navigation ("Next: …, Previous: …, Up: …"): always dropped.
    const labelled = t.links >= NAV_LINKS && t.plainLetters === 0 && t.letters > t.linkLetters;
    const isNav = labelled || (t.relLinks >= NAV_REL_LINKS && share >= NAV_REL_SHARE);
    const drop = (isList && this.rules === 'all') || isNav;
    if (drop) {
      this.all.length = t.all;
      this.mainOut.length = Math.min(this.mainOut.length, t.main);
      this.found.length = t.found;
      if (!isNav && this.mainDepth > 0) this.mainListLetters += t.letters - t.droppedInside;
      // Lists kept inside it went with it.
      while ((this.keptLists.at(-1)?.end ?? 0) > t.all) this.keptLists.pop();
    } else if (isList) this.keptLists.push({ start: t.all, end: this.all.length, hrefs: t.hrefs });
    const outer = this.tallies[this.tallies.length - 1];
    if (!outer) return;
    outer.droppedInside += drop ? t.letters : t.droppedInside;
    outer.droppedLinkLetters += drop ? t.linkLetters : t.droppedLinkLetters;
    outer.letters += t.letters;
    outer.linkLetters += t.linkLetters;
    outer.links += t.links;
    outer.plainLetters += t.plainLetters;
    if (this.rules === 'keep-lists') outer.hrefs.push(...t.hrefs);
    // Navigation already dropped does not make the block around it navigation.
    if (!drop) outer.relLinks += t.relLinks;
  }

  /**
   * When a page's content is a list of links that its site menu repeats (Node's manual's index
   * page), the first of two lists going to the same pages is the menu: its text is cleared.
   */
  private dropRepeatedLists(): void {
    for (const list of this.keptLists) {
      const targets = new Set(list.hrefs);
      if (targets.size < NAV_LINKS) continue;
      const again = this.keptLists.some((later) => {
        if (later.start < list.end) return false;
        const there = new Set(later.hrefs);
        let shared = 0;
        for (const h of targets) if (there.has(h)) shared++;
        return shared >= REPEAT_SHARE * targets.size;
      });
      if (again) this.all.fill('', list.start, list.end);
    }
  }

  private text(raw: string): void {
    // The title lives in <head>, whose text is otherwise not kept.
    if (this.inTitle) this.title += raw;
    if (this.dropped > 0) return;
    if (this.anchorDepth > 0 && isAnchorMark(raw)) return;
    let text = raw.replace(PRIVATE, '');
    const tally = this.tallies[this.tallies.length - 1];
    if (tally) {
      const letters = text.replace(NOT_LETTERS, '').length;
      tally.letters += letters;
      if (this.anchorDepth > 0 && !this.heading) tally.linkLetters += letters;
      else if (letters > 0 && tally.plainLetters === 0)
        // Only whether a block has words other than navigation labels matters: stop at the first.
        for (const w of text.match(WORDS) ?? []) if (!NAV_LABEL.test(w)) tally.plainLetters += w.length;
    }
    if (this.preDepth > 0) {
      if (this.preFresh) text = text.replace(/^\n/, '');
      this.preFresh = false;
      this.push(text.replace(/ /g, PRE_SPACE).replace(/\t/g, PRE_TAB).replace(/\n/g, PRE_NEWLINE));
      return;
    }
    const flow = text.replace(/[\s\u00a0]+/g, ' ');
    this.push(flow);
    if (this.h1Depth > 0) this.h1 += flow;
    if (this.heading) this.heading.title += flow;
  }

  private result(): Reading {
    if (this.rules === 'keep-lists') this.dropRepeatedLists();
    // The page's main content when it marks one that holds text; else everything kept.
    const mainText = this.sawMain ? settle(this.mainOut) : '';
    const mainLetters = mainText.match(LETTERS)?.length ?? 0;
    const useMain = mainLetters > 0;
    // A <main> that is mostly lists of links (a section's first page) is its lists: read again keeping them.
    const mainIsLists = this.sawMain && (mainLetters === 0 || this.mainListLetters > mainLetters);
    const text = useMain ? mainText : settle(this.all);
    // <title> is raw text to the tokenizer: markup written inside it is not what a reader sees.
    const titleText = this.title.includes('<') ? parseHtml(this.title).text : this.title;
    const name = squash(titleText) || squash(this.h1);
    const headings = placeHeadings(
      text,
      this.found.filter((h) => !useMain || h.inMain),
    );
    return {
      text,
      ...(name ? { title: name } : {}),
      ...(headings.length ? { headings } : {}),
      ...(mainIsLists ? { lostMain: true } : {}),
    };
  }
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
