import { describe, expect, it } from 'vitest';
import { parseDocument, RefusedFile, type RawFile } from '../../../src/library/parse';
import { loadPdfJsInNode } from '../../../src/library/parse/pdf-node';
import { tinyPdf } from '../../doubles/tiny-pdf';

const enc = (s: string) => new TextEncoder().encode(s);
const file = (name: string, content: string | Uint8Array, type?: string): RawFile => ({
  name,
  bytes: typeof content === 'string' ? enc(content) : content,
  ...(type ? { type } : {}),
});
async function refusal(f: RawFile, opts = {}): Promise<RefusedFile> {
  try {
    await parseDocument(f, opts);
  } catch (e) {
    if (e instanceof RefusedFile) return e;
    throw e;
  }
  throw new Error(`${f.name} was accepted`);
}

describe('parseDocument', () => {
  it('reads plain text with normalised newlines, titled by file name', async () => {
    const d = await parseDocument(file('notes/garden log.txt', '\ufeffTomatoes ripen in August.\r\nWater daily.\r\n'));
    expect(d).toEqual({
      name: 'notes/garden log.txt',
      format: 'text',
      title: 'garden log',
      text: 'Tomatoes ripen in August.\nWater daily.',
    });
  });

  it('takes the title from an underlined (Setext) heading, as READMEs write it', async () => {
    // The opening of PyYAML's README as Debian ships it (/usr/share/doc/python3-yaml/README.md).
    const pyyaml = await parseDocument(
      file(
        'python3-yaml-README.md',
        'PyYAML\n======\n\nA full-featured YAML processing framework for Python\n\n## Installation\n',
      ),
    );
    expect(pyyaml.title).toBe('PyYAML');
    expect((await parseDocument(file('a-README.md', 'Intro text.\n\nUsage\n-----\n\nRun it.\n'))).title).toBe('Usage');
    // Whichever level-one heading comes first wins; a table rule or a list is no heading.
    expect((await parseDocument(file('b.md', 'Top\n===\n\n# Later\n'))).title).toBe('Top');
    expect((await parseDocument(file('c.md', '# First\n\nSecond\n======\n'))).title).toBe('First');
    expect((await parseDocument(file('d-notes.md', '- item\n---\n| a |\n|---|\n'))).title).toBe('d-notes');
  });

  it('keeps Markdown as written and takes the title from front matter or the first heading', async () => {
    const md = await parseDocument(file('bees.md', '# How Bees Dance\n\nThe *waggle* dance shows direction.'));
    expect(md.title).toBe('How Bees Dance');
    expect(md.text).toBe('# How Bees Dance\n\nThe *waggle* dance shows direction.');
    const fm = await parseDocument(file('x.markdown', '---\ntitle: "Tides"\ndate: 2024\n---\nThe moon pulls.'));
    expect(fm).toMatchObject({ format: 'markdown', title: 'Tides', text: 'The moon pulls.' });
  });

  it('reduces HTML to its visible text: scripts, styles, handlers and comments gone, entities decoded', async () => {
    const html = `<!doctype html><html><head><title>Tea &amp; Cake</title><style>p{color:red}</style>
      <script>window.pwned = 1</script></head><body><h1>Recipe</h1>
      <p>Mix 2 &lt; 3 cups&nbsp;flour.<img src="x" onerror="window.pwned=2"></p><!-- secret -->
      <ul><li>Eggs</li><li>Sugar &#x2014; 100&#160;g</li></ul><script src="evil.js"></script>
      <p title="a > b">Bake at 180&deg;C.</p><noscript>enable js</noscript></body></html>`;
    const d = await parseDocument(file('cake.html', html));
    expect(d.title).toBe('Tea & Cake');
    expect(d.text).toBe('Recipe\n\nMix 2 < 3 cups flour.\n\nEggs\n\nSugar — 100 g\n\nBake at 180°C.');
    expect(d.text).not.toMatch(/pwned|secret|color|enable js|onerror/);
  });

  it('decodes every named HTML entity and keeps text split across inline tags whole', async () => {
    const d = await parseDocument(file('x.html', '<p>I &hearts; &Omega;-rated <b>bee</b>s&hellip; &zzz;</p>'));
    expect(d.text).toBe('I ♥ Ω-rated bees… &zzz;');
  });

  it('hides everything after an unclosed <script>, as a browser would', async () => {
    const d = await parseDocument(file('x.htm', '<p>Visible.</p><script>var s = "<p>not text</p>";'));
    expect(d.text).toBe('Visible.');
  });

  it('extracts PDF text page by page, the lines of a paragraph joined', async () => {
    const pdf = tinyPdf([
      ['Bees dance to show direction, and the', 'waggle runs encode distance.'],
      ['Honey is stored in wax cells.'],
    ]);
    const d = await parseDocument(file('bees.pdf', pdf), { pdf: loadPdfJsInNode });
    expect(d.format).toBe('pdf');
    expect(d.text).toBe(
      'Bees dance to show direction, and the waggle runs encode distance.\n\nHoney is stored in wax cells.',
    );
  });

  it('refuses bad files with a message naming the file and the reason', async () => {
    const cases: Array<[RawFile, RegExp, object?]> = [
      [file('empty.txt', ''), /empty/],
      [file('blank.md', ' \n\n\t '), /no text/],
      [file('photo.txt', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13])), /binary/],
      [file('ctrl.txt', new Uint8Array(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 2 : 65)))), /binary/],
      [file('broken-utf8.txt', new Uint8Array([0x63, 0x61, 0x66, 0xc3, 0xa9, 0x20, 0xe9, 0x2e])), /not valid UTF-8/],
      [file('archive.md', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0])), /zip archive.*unzip it/],
      [file('fake.docx', 'hello'), /not a Word document/],
      [file('fake.epub', 'hello'), /not an EPUB book/],
      [file('big.txt', 'x'.repeat(2000)), /too large/, { maxBytes: 1000 }],
      [file('report.doc', 'PK'), /\.doc files are not supported/],
      [file('fake.pdf', 'hello'), /not a PDF/, { pdf: loadPdfJsInNode }],
      [file('broken.pdf', '%PDF-1.4\ngarbage'), /could not be read/, { pdf: loadPdfJsInNode }],
      [file('scan.pdf', tinyPdf([[]])), /no extractable text/, { pdf: loadPdfJsInNode }],
      [file('doc.pdf', tinyPdf([['hi']])), /PDF files are not supported here/],
    ];
    for (const [f, reason, opts] of cases) {
      const e = await refusal(f, opts);
      expect(e.fileName).toBe(f.name);
      expect(e.message.startsWith(`${f.name}: `)).toBe(true);
      expect(e.reason).toMatch(reason);
    }
  });

  it('accepts UTF-16 text marked by its byte order mark', async () => {
    const s = 'Ünïcode tides.';
    const bytes = new Uint8Array(2 + s.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < s.length; i++) bytes[2 + i * 2] = s.charCodeAt(i);
    expect((await parseDocument(file('u16.txt', bytes))).text).toBe(s);
  });
});
