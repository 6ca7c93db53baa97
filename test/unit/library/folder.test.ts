// A folder is what a user has on disk: documents beside icons, logos and code. Pages to
// recognise go in; decoration is counted as skipped instead of being sent to OCR.
import { describe, expect, it } from 'vitest';
import { collectPicked, isDecorationImage, SMALLEST_PAGE_PX } from '../../../src/library/folder';
import { jpegHeader, png, webpLossless } from '../../doubles/image-bytes';

/** A copy on a plain ArrayBuffer, as File and Blob take it. */
const part = (bytes: Uint8Array | string): BlobPart => (typeof bytes === 'string' ? bytes : new Uint8Array(bytes));

function picked(path: string, bytes: Uint8Array | string): File {
  const name = path.split('/').pop()!;
  const f = new File([part(bytes)], name);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

describe('folders: decoration images are skipped, pages are kept', () => {
  it('skips icons and buttons in a folder and keeps scanned pages, documents and a lone icon', async () => {
    const lone = new File([part(png(32, 32))], 'favicon.png');
    const out = await collectPicked([
      picked('site/img/logo.png', png(48, 48)),
      picked('site/img/touch-icon.png', png(180, 180)),
      picked('site/img/button.jpg', jpegHeader(120, 40)),
      picked('site/scans/letter.png', png(2480, 3508)),
      picked('site/scans/receipt.jpg', jpegHeader(800, 1900)),
      picked('site/notes.md', '# Notes\n\nThe tide turns twice a day.'),
      picked('site/app.js', 'console.log(1)'),
      lone,
    ]);
    const names = out.files.map((f) => ('blob' in f ? f.name : f.name));
    expect(names).toEqual(['site/scans/letter.png', 'site/scans/receipt.jpg', 'site/notes.md', 'favicon.png']);
    expect(out.skipped).toBe(4);
  });

  it('judges by the longer side, and leaves unreadable headers to the library to name', async () => {
    expect(await isDecorationImage('wide.webp', new Blob([part(webpLossless(SMALLEST_PAGE_PX - 1, 20))]))).toBe(true);
    expect(await isDecorationImage('banner.webp', new Blob([part(webpLossless(SMALLEST_PAGE_PX, 20))]))).toBe(false);
    expect(await isDecorationImage('broken.png', new Blob([part(new Uint8Array([0x89, 0x50, 0x4e]))]))).toBe(false);
    expect(await isDecorationImage('notes.md', new Blob([part(png(10, 10))]))).toBe(false);
  });
});
