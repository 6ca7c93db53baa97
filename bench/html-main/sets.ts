// Real HTML no one on this project wrote, as the toolchain and Debian install it, with what a
// person reading each site sees as its chrome (menus, navigation, pop-ups, tables of contents
// that repeat the headings) and as its content, written as CSS selectors after reading the
// pages. The selectors are this bench's oracle, one per site; the extraction under test knows
// none of them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface HtmlSet {
  name: string;
  files: string[];
  /** Elements a reader sees as chrome. */
  chrome: string;
  /** The element holding the page's content (chrome inside it is taken out first). */
  main: string;
}

/** Every `.html` under `dir`, sorted; without `print.html`, `toc.html` and `404.html` (a whole book, its menu, an error page). */
export function htmlFiles(dir: string, filter: (path: string) => boolean = () => true): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.html') && !/^(print|toc|404)\.html$/.test(name) && filter(p)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** rustup's documentation folder for the newest toolchain that has one. */
export function rustupDocs(): string | undefined {
  const root = join(homedir(), '.rustup', 'toolchains');
  if (!existsSync(root)) return undefined;
  const found = readdirSync(root)
    .sort()
    .reverse()
    .map((t) => join(root, t, 'share/doc/rust/html'))
    .filter((d) => existsSync(join(d, 'book')));
  return found[0];
}

// mdBook 0.4.40+ (rustup's books): a keyboard-help pop-up, a menu bar with the theme menu and
// search, the sidebar (filled by script), previous/next links.
const MDBOOK = '#mdbook-help-container, #mdbook-menu-bar, #mdbook-search-wrapper, #mdbook-sidebar, nav';
// mdBook as Debian's rust-doc (1.63) ships it: the sidebar holds the whole table of contents.
const MDBOOK_OLD = '#sidebar, #menu-bar, #search-wrapper, nav';

/** A redirect stub ("this page has moved", the 2018 edition's and the first edition's pages) is not a page to measure. */
const notStub = (p: string) => !/\/(2018-edition|first-edition|second-edition)\//.test(p) && statSync(p).size > 4000;

export function htmlSets(): HtmlSet[] {
  const rustup = rustupDocs();
  const sets: HtmlSet[] = [];
  if (rustup) {
    sets.push(
      { name: 'Rust book (rustup)', files: htmlFiles(join(rustup, 'book'), notStub), chrome: MDBOOK, main: 'main' },
      { name: 'Cargo book (rustup)', files: htmlFiles(join(rustup, 'cargo'), notStub), chrome: MDBOOK, main: 'main' },
      { name: 'rustc book (rustup)', files: htmlFiles(join(rustup, 'rustc'), notStub), chrome: MDBOOK, main: 'main' },
    );
  }
  const debian = '/usr/share/doc/rust-doc/html/book';
  sets.push(
    {
      name: "Rust book (Debian's rust-doc)",
      files: htmlFiles(debian, notStub),
      chrome: MDBOOK_OLD,
      main: 'main',
    },
    {
      // DocBook: navigation tables above and below each chapter, and the chapter's table of contents.
      name: 'Valgrind manual (Debian)',
      files: htmlFiles('/usr/share/doc/valgrind/html'),
      chrome: 'table.nav, div.toc, div.navheader, div.navfooter',
      main: 'body',
    },
    {
      // DocBook from AsciiDoc: one page, its table of contents first.
      name: 'Ninja manual (Debian)',
      files: htmlFiles('/usr/share/doc/ninja-build'),
      chrome: 'div.toc',
      main: 'body',
    },
    {
      // The API index on the left, the header's links and version picker, the page's table of contents.
      name: 'Node.js API (Debian)',
      // all.html is every other page again, on one page.
      files: htmlFiles('/usr/share/doc/nodejs/api', (p) => !p.endsWith('/all.html')),
      chrome: '#column2, header, #toc, .skip-to-content',
      main: '#apicontent',
    },
  );
  sets.push(
    {
      // GNU Texinfo: each node opens with "Next: …, Previous: …, Up: …" links and a menu of its sections.
      name: 'GNU Texinfo manuals: bc, time, libffi (Debian)',
      files: [
        ...htmlFiles('/usr/share/doc/bc'),
        ...htmlFiles('/usr/share/doc/time'),
        ...htmlFiles('/usr/share/doc/libffi8/html'),
      ],
      chrome: 'div.header, table.menu, div.contents, div.shortcontents',
      main: 'body',
    },
    {
      // The libxml-style site: a table layout, the menus of links in a 200-pixel column beside the page.
      name: 'libxslt API (Debian)',
      files: htmlFiles('/usr/share/doc/libxslt1-dev/html/html'),
      chrome: 'td[width="200"], table.navigation',
      main: 'body',
    },
  );
  const std = '/usr/share/doc/rust-doc/html/std';
  sets.push({
    // rustdoc's API pages: a stress set, not one of the goals (their toggles and version marks are inside <main>).
    name: "std API, sync and rc modules (Debian's rust-doc)",
    files: [...htmlFiles(join(std, 'sync')), ...htmlFiles(join(std, 'rc'))].filter(notStub),
    chrome: 'nav, .sidebar, .sub, .mobile-topbar, #settings-menu, summary.hideme, .out-of-band, .srclink, a.anchor',
    main: 'main',
  });
  return sets.filter((s) => s.files.length > 0);
}
