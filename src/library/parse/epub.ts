// An EPUB is a zip of XHTML chapters: the package file (found through
// META-INF/container.xml) names them in reading order (the spine), and each
// chapter goes through the same HTML path as a web page.
import { unzipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import type { HeadingMark } from '../../core/source-location';
import { parseHtml } from './html';
import { RefusedFile } from './refusal';
import { visibleTitle } from './title';
import { errorMessage } from '../../core/errors';

interface Tag {
  name: string;
  attrs: Record<string, string>;
}

/** Every element of an XML file with its attributes, plus the text of the first <dc:title>. */
function readXml(xml: string): { tags: Tag[]; title: string } {
  const tags: Tag[] = [];
  let inTitle = false;
  let title = '';
  let titleDone = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        tags.push({ name: name.toLowerCase(), attrs });
        if (name.toLowerCase() === 'dc:title' && !titleDone) inTitle = true;
      },
      onclosetag(name) {
        if (name.toLowerCase() === 'dc:title' && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
      ontext(t) {
        if (inTitle) title += t;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return { tags, title };
}

function resolve(base: string, href: string): string {
  const parts =
    (base.includes('/') ? base.slice(0, base.lastIndexOf('/') + 1) : '') + decodeURIComponent(href.split('#')[0] ?? '');
  const out: string[] = [];
  for (const p of parts.split('/')) {
    if (p === '..') out.pop();
    else if (p && p !== '.') out.push(p);
  }
  return out.join('/');
}

export function parseEpub(
  name: string,
  bytes: Uint8Array,
): { text: string; title?: string; notes: string[]; headings?: HeadingMark[] } {
  const bad = (why: string) =>
    new RefusedFile(name, `the EPUB could not be read (${why}); check that it opens in an e-book reader`);
  let files: Record<string, Uint8Array>;
  try {
    // Only text parts are inflated: images and fonts can be most of a book's bytes.
    files = unzipSync(bytes, { filter: (f) => /\.(x?html?|xml|opf|ncx)$/i.test(f.name) || f.name === 'mimetype' });
  } catch (e) {
    throw bad(errorMessage(e));
  }
  const utf8 = new TextDecoder();
  const read = (path: string) => (files[path] ? utf8.decode(files[path]) : undefined);
  if (read('META-INF/encryption.xml')?.includes('EncryptedData'))
    throw new RefusedFile(name, 'the EPUB is encrypted (DRM), so its text cannot be read; use a DRM-free copy');
  const container = read('META-INF/container.xml');
  if (!container) throw bad('it has no META-INF/container.xml');
  const opfPath = readXml(container).tags.find((t) => t.name === 'rootfile')?.attrs['full-path'];
  const opf = opfPath ? read(opfPath) : undefined;
  if (!opfPath || !opf) throw bad('its package file is missing');
  const { tags, title } = readXml(opf);
  const manifest = new Map(
    tags.filter((t) => t.name === 'item' && t.attrs.id && t.attrs.href).map((t) => [t.attrs.id!, t.attrs.href!]),
  );
  const chapters: string[] = [];
  const notes: string[] = [];
  // Each chapter's headings, moved to where the chapter lands in the joined text.
  const headings: HeadingMark[] = [];
  let offset = 0;
  for (const ref of tags.filter((t) => t.name === 'itemref')) {
    const href = manifest.get(ref.attrs.idref ?? '');
    if (!href) continue;
    const xhtml = read(resolve(opfPath, href));
    if (xhtml === undefined) {
      notes.push(`chapter ${href} is missing from the book and was skipped`);
      continue;
    }
    const chapter = parseHtml(xhtml);
    if (!chapter.text) continue;
    for (const h of chapter.headings ?? []) headings.push({ ...h, start: h.start + offset });
    chapters.push(chapter.text);
    offset += chapter.text.length + 2;
  }
  const t = visibleTitle(title);
  const text = chapters.join('\n\n');
  return { text, notes, ...(t ? { title: t } : {}), ...(headings.length ? { headings } : {}) };
}
