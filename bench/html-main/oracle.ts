// What a page's chrome and content are, read with a DOM (linkedom) through the site's own
// selectors (sets.ts), as runs of four words ("shingles"): a passage holds chrome when it has a
// run of four words that the chrome has and the content does not ("Auto Light Rust Coal",
// "Press ← or →"); content is kept in the share of the content's runs the extracted text has.
import { parseHTML } from 'linkedom';

export type Shingles = Set<string>;

const WORD = /[\p{L}\p{N}]+/gu;

export function shingles(text: string, n = 4): Shingles {
  const words = text.toLowerCase().match(WORD) ?? [];
  const out: Shingles = new Set();
  for (let i = 0; i + n <= words.length; i++) out.add(words.slice(i, i + n).join(' '));
  return out;
}

export interface PageTruth {
  /** Runs of the chrome's text that its content does not have. */
  chrome: Shingles;
  content: Shingles;
  code: Shingles;
  tables: Shingles;
  lists: Shingles;
  /** Headings of the content, as read. */
  headings: string[];
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

type El = { textContent: string | null; remove(): void };
type Root = { querySelectorAll(s: string): Iterable<El> & ArrayLike<El>; querySelector(s: string): Root | null };

// Blocks and cells are apart on screen: their texts are joined with a space (a DOM's
// textContent runs "<td>Port</td><td>Range</td>" together as "PortRange").
const APART = new Set(
  'address article aside blockquote br caption dd details div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td th thead tfoot tr ul'.split(
    ' ',
  ),
);

interface DomNode {
  nodeType: number;
  nodeName: string;
  data?: string;
  childNodes: ArrayLike<DomNode>;
}

function readText(node: DomNode, out: string[]): void {
  if (node.nodeType === 3) {
    out.push(node.data ?? '');
    return;
  }
  const apart = APART.has(node.nodeName.toLowerCase());
  if (apart) out.push(' ');
  for (let i = 0; i < node.childNodes.length; i++) readText(node.childNodes[i]!, out);
  if (apart) out.push(' ');
}

const textOf = (els: Iterable<El>) => {
  const out: string[] = [];
  for (const e of els) readText(e as unknown as DomNode, out), out.push(' ');
  return out.join('');
};

export function pageTruth(html: string, chromeSelector: string, mainSelector: string): PageTruth {
  const { document } = parseHTML(html) as unknown as { document: Root };
  for (const e of [...document.querySelectorAll('script, style, template, svg, noscript')]) e.remove();
  // Buttons are chrome on every site: text a reader clicks.
  const chromeEls = [...document.querySelectorAll(`${chromeSelector}, button`)];
  const chromeText = textOf(chromeEls);
  for (const e of chromeEls) e.remove();
  const main = document.querySelector(mainSelector) ?? document.querySelector('body');
  const content = shingles(main ? textOf([main as unknown as El]) : '');
  const chrome = shingles(chromeText);
  for (const s of content) chrome.delete(s);
  const within = (sel: string) => (main ? shingles(textOf(main.querySelectorAll(sel))) : new Set<string>());
  return {
    chrome,
    content,
    code: within('pre'),
    tables: within('table'),
    lists: within('li'),
    headings: main
      ? [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')]
          // Without the anchor mark some generators put after a heading ("File system#").
          .map((h) => squash(h.textContent ?? '').replace(/\s*[#¶§]$/u, ''))
          .filter(Boolean)
      : [],
  };
}

/** Share of `want` that `have` holds; [hits, total] so pages can be summed. */
export function covered(want: Shingles, have: Shingles): [number, number] {
  let hit = 0;
  for (const s of want) if (have.has(s)) hit++;
  return [hit, want.size];
}

export function holdsChrome(passage: string, chrome: Shingles): boolean {
  if (chrome.size === 0) return false;
  for (const s of shingles(passage)) if (chrome.has(s)) return true;
  return false;
}
