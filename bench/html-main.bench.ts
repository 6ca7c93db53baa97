// Pages without their chrome: how much menu, navigation and pop-up text reaches the passages,
// and how much of the page's content is kept, for four ways of reading an HTML page:
//   before       the HTML-to-text pass as it was (bench/html-main/legacy-html.ts)
//   rules        the app's parser: <main> when the page marks one, chrome dropped by element,
//                role and attribute (src/library/parse/html.ts, html-chrome.ts)
//   readability  Mozilla's Readability (Firefox's reader view) over a linkedom DOM
//   defuddle     Defuddle over a linkedom DOM (its remote extractors off)
// Readability's and Defuddle's article HTML is reduced to text by the "before" pass; a page
// they find no article in is kept whole. Chrome and content are judged per site by selectors
// written after reading the pages (bench/html-main/sets.ts, oracle.ts), runs of four words.
// Each passage is cut by the app's chunker. Time is the parse alone, per page, same run.
//   npm run bench -- html-main             every set
//   BENCH_HTML_PAGES=20 npm run bench -- html-main   the first 20 pages of each set
import { readFileSync } from 'node:fs';
import { Readability } from '@mozilla/readability';
import { Defuddle } from 'defuddle/node';
import { parseHTML } from 'linkedom';
import { chunkText } from '../src/core/chunk';
import { parseHtml } from '../src/library/parse/html';
import { parseHtml as legacyHtml } from './html-main/legacy-html';
import { covered, holdsChrome, pageTruth, shingles, type PageTruth } from './html-main/oracle';
import { htmlSets, type HtmlSet } from './html-main/sets';
import { errorMessage } from '../src/core/errors';

type Method = { name: string; text: (html: string) => Promise<string> | string };

function readability(html: string): string {
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  return article?.content ? legacyHtml(article.content).text : legacyHtml(html).text;
}

async function defuddle(html: string): Promise<string> {
  const { document } = parseHTML(html);
  const r = await Defuddle(document as unknown as Document, 'file:///page.html', { useAsync: false });
  return r.content?.trim() ? legacyHtml(r.content).text : legacyHtml(html).text;
}

export const METHODS: Method[] = [
  { name: 'before', text: (h) => legacyHtml(h).text },
  { name: 'rules', text: (h) => parseHtml(h).text },
  { name: 'readability', text: readability },
  { name: 'defuddle', text: defuddle },
];

interface Tally {
  passages: number;
  chromePassages: number;
  pagesWithChrome: number;
  content: [number, number];
  code: [number, number];
  tables: [number, number];
  lists: [number, number];
  headings: [number, number];
  ms: number;
  example?: string;
}

const add = (a: [number, number], b: [number, number]) => {
  a[0] += b[0];
  a[1] += b[1];
};

const normal = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

async function measure(set: HtmlSet, method: Method, pages: { html: string; truth: PageTruth }[]): Promise<Tally> {
  const t: Tally = {
    passages: 0,
    chromePassages: 0,
    pagesWithChrome: 0,
    content: [0, 0],
    code: [0, 0],
    tables: [0, 0],
    lists: [0, 0],
    headings: [0, 0],
    ms: 0,
  };
  for (const [i, { html, truth }] of pages.entries()) {
    const t0 = performance.now();
    let text: string;
    try {
      text = await method.text(html);
    } catch (e) {
      console.log(`  ${method.name} failed on ${set.files[i]}: ${errorMessage(e)}`);
      text = '';
    }
    t.ms += performance.now() - t0;
    const passages = text.trim() ? chunkText({ docId: 'd', title: 'T', text }) : [];
    t.passages += passages.length;
    const bad = passages.filter((p) => holdsChrome(p.text, truth.chrome));
    t.chromePassages += bad.length;
    if (bad.length) {
      t.pagesWithChrome++;
      t.example ??= `${set.files[i]}: ${JSON.stringify(bad[0]!.text.slice(0, 160))}`;
    }
    const have = shingles(text);
    add(t.content, covered(truth.content, have));
    add(t.code, covered(truth.code, have));
    add(t.tables, covered(truth.tables, have));
    add(t.lists, covered(truth.lists, have));
    const flat = normal(text);
    add(t.headings, [truth.headings.filter((h) => flat.includes(normal(h))).length, truth.headings.length]);
  }
  return t;
}

const share = ([a, b]: [number, number]) => (b === 0 ? '–' : (a / b).toFixed(3));

export async function run(): Promise<void> {
  const limit = Number(process.env.BENCH_HTML_PAGES ?? 0);
  const sets = htmlSets();
  if (sets.length === 0) {
    console.log('!!! no real HTML found (rustup docs, /usr/share/doc): nothing measured');
    return;
  }
  console.log(
    '| set (pages) | method | passages | with chrome | share with chrome | pages with chrome | content kept | code kept | tables kept | lists kept | headings kept | ms per page |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const examples: string[] = [];
  for (const set of sets) {
    const files = limit > 0 ? set.files.slice(0, limit) : set.files;
    const pages = files.map((f) => {
      const html = readFileSync(f, 'utf8');
      return { html, truth: pageTruth(html, set.chrome, set.main) };
    });
    for (const method of METHODS) {
      const t = await measure({ ...set, files }, method, pages);
      console.log(
        `| ${set.name} (${files.length}) | ${method.name} | ${t.passages} | ${t.chromePassages} | ${share([t.chromePassages, t.passages])} | ${t.pagesWithChrome} | ${share(t.content)} | ${share(t.code)} | ${share(t.tables)} | ${share(t.lists)} | ${share(t.headings)} | ${(t.ms / files.length).toFixed(1)} |`,
      );
      if (t.example) examples.push(`${set.name}, ${method.name}: ${t.example}`);
    }
  }
  console.log('\nFirst passage holding chrome, per set and method:');
  for (const e of examples) console.log(`  ${e}`);
}
