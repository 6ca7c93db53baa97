// Document sets written to disk for ingestion tests: a hostile set (one file per
// way a file can be bad) and a real-shaped set (README files other people wrote,
// taken from node_modules, plus generated book chapters in HTML, notes in
// Markdown and text, Word, EPUB and PDF files, and non-documents a folder walk
// must skip).
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  existsSync,
  ftruncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { makeDocx, makeEpub } from './office-files';
import { tinyPdf } from './tiny-pdf';
import { jpegHeader, png } from './image-bytes';

export interface HostileFile {
  name: string;
  /** What a user should see: the document in the library, or the file listed with a reason matching this. */
  expect: 'added' | RegExp;
  /** Visible title expected when added. */
  title?: string;
}

const WORDS =
  'river bread garden king queen apple banana tide moon honey bee wax paris london winter summer harvest flour water wind sail lighthouse lens beam sea kite'.split(
    ' ',
  );

function prose(seed: number, sentences: number): string {
  let x = seed * 9301 + 49297;
  const next = () => (x = (x * 9301 + 49297) % 233280) / 233280;
  const out: string[] = [];
  for (let s = 0; s < sentences; s++) {
    const n = 6 + Math.floor(next() * 10);
    const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    out.push(`${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`);
  }
  return out.join(' ');
}

/** The hostile set; `huge.txt` is a sparse 220 MB file, so it costs no disk and must never be read. */
export function writeHostileSet(dir: string): HostileFile[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<HostileFile & { body?: Uint8Array | string }> = [
    { name: 'empty.txt', body: '', expect: /empty/ },
    { name: 'blank.md', body: ' \n\n\t  \n', expect: /no text/ },
    {
      name: 'photo-renamed.md',
      body: new Uint8Array([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0,
      ]),
      expect: /binary/,
    },
    { name: 'archive-renamed.txt', body: zipSync({ 'a.txt': strToU8('hello river') }), expect: /zip archive.*unzip/ },
    {
      name: 'nul-byte.txt',
      body: `The river king grows apple trees.\u0000 The queen bakes bread.`,
      expect: /binary.*NUL/,
    },
    { name: 'not-really.pdf', body: 'just some text pretending to be a PDF', expect: /not a PDF/ },
    {
      name: 'not-a-word.docx',
      body: zipSync({ 'readme.txt': strToU8('no document inside') }),
      expect: /Word document could not be read/,
    },
    {
      name: 'locked.epub',
      body: makeEpub('Locked', ['<p>secret river</p>'], { encrypted: true }),
      expect: /encrypted \(DRM\)/,
    },
    { name: 'huge.txt', expect: /too large \(220\.0 MB/ },
    {
      name: 'utf16-bom.txt',
      body: new Uint8Array([
        0xff,
        0xfe,
        ...[...'The tide rises with the moon in utf sixteen.'].flatMap((c) => [c.charCodeAt(0), 0]),
      ]),
      expect: 'added',
    },
    {
      name: 'latin1.txt',
      body: new Uint8Array([
        ...strToU8('The caf'),
        0xe9,
        ...strToU8(' by the river sells cr'),
        0xe8,
        ...strToU8('me bread.'),
      ]),
      expect: 'added',
    },
    {
      name: 'deep-nesting.html',
      // About 1 MB of nested elements: the page froze 2.1 s on this when HTML was parsed on the main thread.
      body: `<html><body>${'<div><span>'.repeat(45000)}The lighthouse lens sends its beam far out to sea.${'</span></div>'.repeat(45000)}</body></html>`,
      expect: 'added',
    },
    {
      name: 'script-payload.html',
      body: `<html><head><title>Harvest <script>window.__pwned='title'</script>report</title><script>window.__pwned='head'; alert(1)</script></head><body>
<h1 onclick="window.__pwned='h1'">Harvest report</h1><img src=x onerror="window.__pwned='img'; alert(2)"><iframe src="javascript:parent.__pwned='iframe'"></iframe>
<p>The apple harvest in the river valley was good this summer.</p><a href="javascript:window.__pwned='link'">click</a><svg onload="window.__pwned='svg'"></svg>
<object data="data:text/html,<script>parent.__pwned='object'</script>"></object><style>body{background:url(javascript:alert(3))}</style></body></html>`,
      expect: 'added',
      title: 'Harvest report',
    },
    {
      name: 'script-payload.md',
      body: `# Notes <img src=x onerror="window.__pwned='md-title'; alert(4)">\n\nThe queen of london eats banana bread. <script>window.__pwned='md'</script>\n\n<iframe src="javascript:parent.__pwned='md-iframe'"></iframe>\n[link](javascript:window.__pwned='md-link')\n`,
      expect: 'added',
      title: 'Notes',
    },
  ];
  for (const f of files) {
    const path = join(dir, f.name);
    if (f.name === 'huge.txt') {
      const fd = openSync(path, 'w');
      ftruncateSync(fd, 220 * 1024 * 1024);
      closeSync(fd);
    } else writeFileSync(path, f.body ?? '');
  }
  return files.map(({ name, expect, title }) => ({ name, expect, ...(title ? { title } : {}) }));
}

export interface RealShapedSet {
  /** Paths of documents relative to `dir`, all of which must end up in the library. */
  documents: string[];
  /** Files in the folder that are not documents (a walk skips and counts them). */
  nonDocuments: number;
  bytes: number;
}

/** At least `count` documents under `dir/<folder>/`, in sub-folders, with distinct contents. */
export function writeRealShapedSet(root: string, dir: string, folder: string, count = 120): RealShapedSet {
  const base = join(dir, folder);
  const documents: string[] = [];
  let bytes = 0;
  const seen = new Set<string>();
  const put = (rel: string, body: Uint8Array | string) => {
    const data = typeof body === 'string' ? strToU8(body) : body;
    const key = Buffer.from(data).toString('base64');
    if (seen.has(key)) return;
    seen.add(key);
    const path = join(base, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, data);
    documents.push(`${folder}/${rel}`);
    bytes += data.length;
  };
  // Real READMEs by other people, as installed with the project's dependencies.
  const modules = join(root, 'node_modules');
  for (const name of readdirSync(modules).sort()) {
    const readme = join(modules, name, 'README.md');
    if (documents.length >= 50 || !existsSync(readme)) continue;
    const text = readFileSync(readme);
    if (text.length > 200 && text.length < 400_000) put(`readmes/${name}.md`, text);
  }
  let i = 0;
  while (documents.length < count) {
    const n = i++;
    const kind = n % 8;
    const title = `Chapter ${n + 1}: the ${WORDS[n % WORDS.length]} and the ${WORDS[(n * 7) % WORDS.length]}`;
    const paras = Array.from({ length: 3 + (n % 12) }, (_, k) => prose(n * 31 + k, 4 + (k % 5)));
    if (kind <= 2)
      put(
        `book/ch${String(n).padStart(3, '0')}.html`,
        `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="s.css"><script src="nav.js"></script></head><body><nav><a href="index.html">Contents</a> &middot; <a href="#">Next &rarr;</a></nav><main><h1>${title}</h1>${paras
          .map((p, k) =>
            k % 4 === 3
              ? `<pre><code>let ${WORDS[k]} = ${k};\nfn main() { println!("{}", ${WORDS[k]}); }</code></pre>`
              : `<p>${p}</p>`,
          )
          .join(
            '\n',
          )}<table><tr><th>Word</th><th>Count</th></tr><tr><td>${WORDS[n % 20]}</td><td>${n}</td></tr></table></main><footer>&copy; 2024</footer></body></html>`,
      );
    else if (kind <= 4)
      put(
        `notes/${n}-${WORDS[n % WORDS.length]}.md`,
        `---\ntitle: "${title}"\n---\n\n${paras.map((p, k) => (k % 3 === 2 ? `- ${p}\n- item` : p)).join('\n\n')}\n`,
      );
    else if (kind === 5) put(`plain/log-${n}.txt`, `${title}\r\n\r\n${paras.join('\r\n\r\n')}`);
    else if (kind === 6)
      put(
        `office/report-${n}.docx`,
        makeDocx([{ text: title, style: 'Heading1' }, ...paras.map((text) => ({ text }))]),
      );
    else
      put(
        n % 16 === 7 ? `office/manual-${n}.pdf` : `books/book-${n}.epub`,
        n % 16 === 7
          ? tinyPdf(paras.map((p) => p.match(/.{1,80}(\s|$)/g) ?? [p]))
          : makeEpub(
              title,
              paras.map((p) => `<h2>Part</h2><p>${p}</p>`),
            ),
      );
  }
  // What a real folder also holds: images that are not pages (a GIF; PNG and JPEG icons too small
  // to hold a page, which would otherwise be sent to OCR), code, a hidden directory.
  const extras: Array<[string, Uint8Array | string]> = [
    ['book/cover.gif', new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0])],
    ['book/img/logo.png', png(48, 48)],
    ['book/img/apple-touch-icon.png', png(180, 180)],
    ['notes/img/button.jpg', jpegHeader(120, 40)],
    ['book/nav.js', 'document.title = "x";'],
    ['book/s.css', 'body { color: red }'],
    ['.git/config', '[core]\n\trepositoryformatversion = 0\n'],
    ['notes/.DS_Store', new Uint8Array([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31])],
  ];
  for (const [rel, body] of extras) {
    mkdirSync(join(base, rel, '..'), { recursive: true });
    writeFileSync(join(base, rel), body);
  }
  return { documents, nonDocuments: extras.length, bytes };
}
