// Word, EPUB and older encodings read as a user expects, and titles taken from
// what a reader sees, never from markup.
import { describe, expect, it } from 'vitest';
import { parseDocument, RefusedFile } from '../../../src/library/parse';
import { makeDocx, makeEpub } from '../../doubles/office-files';

const enc = (s: string) => new TextEncoder().encode(s);

describe('formats', () => {
  it('reads a Word document through its structure: the heading is the title, paragraphs are text', async () => {
    const bytes = makeDocx([
      { text: 'Beekeeping Basics', style: 'Heading1' },
      { text: 'Forager bees perform a waggle dance.' },
      { text: 'Honey is stored in wax cells.' },
    ]);
    const d = await parseDocument({ name: 'bees.docx', bytes });
    expect(d.format).toBe('docx');
    expect(d.title).toBe('Beekeeping Basics');
    expect(d.text).toBe('Beekeeping Basics\n\nForager bees perform a waggle dance.\n\nHoney is stored in wax cells.');
  });

  it('reads an EPUB book chapter by chapter in spine order, titled by its metadata, scripts never read', async () => {
    const bytes = makeEpub('Tides &amp; Moons', [
      '<h1>One</h1><p>The moon raises tides.</p><script>steal()</script>',
      '<p>Spring tides come at full moon.</p>',
    ]);
    const d = await parseDocument({ name: 'book.epub', bytes });
    expect(d.format).toBe('epub');
    expect(d.title).toBe('Tides & Moons');
    expect(d.text).toBe('One\n\nThe moon raises tides.\n\nSpring tides come at full moon.');
  });

  it('refuses an encrypted EPUB with what to do', async () => {
    const e = await parseDocument({
      name: 'drm.epub',
      bytes: makeEpub('Locked', ['<p>x</p>'], { encrypted: true }),
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RefusedFile);
    expect((e as RefusedFile).reason).toMatch(/encrypted \(DRM\).*DRM-free copy/);
  });

  it('reads a Latin-1 file as Windows-1252 and says so', async () => {
    const d = await parseDocument({
      name: 'cafe.txt',
      bytes: new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x2e]),
    });
    expect(d.text).toBe('Café crème.');
    expect(d.notes).toEqual([expect.stringMatching(/Latin-1/)]);
  });

  it('takes titles from visible text: raw HTML and Markdown marks in a heading are dropped', async () => {
    const md = await parseDocument({
      name: 'n.md',
      bytes: enc('# Notes <img src=x onerror="alert(1)"> on **bees** and [dances](http://x)\n\nText.'),
    });
    expect(md.title).toBe('Notes on bees and dances');
    const readme = await parseDocument({
      name: 'README.md',
      bytes: enc(
        '# call-bind [![Version Badge][npm-version-svg]][package-url] ![logo](l.png)\n\n[![github actions][actions-image]][actions-url]\n\nText.',
      ),
    });
    expect(readme.title).toBe('call-bind');
    const byReference = await parseDocument({
      name: 'r.md',
      bytes: enc('# The [tide tables][tides] of 2024\n\nText.\n\n[tides]: http://x'),
    });
    expect(byReference.title).toBe('The tide tables of 2024');
    const fm = await parseDocument({ name: 'f.md', bytes: enc('---\ntitle: "<b>Tides</b> `today`"\n---\nThe moon.') });
    expect(fm.title).toBe('Tides today');
    const html = await parseDocument({
      name: 'h.html',
      bytes: enc('<h1>Cakes <script>alert(1)</script><em>and</em> bread</h1><p>Flour.</p>'),
    });
    expect(html.title).toBe('Cakes and bread');
  });
});
