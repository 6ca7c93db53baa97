// Word documents through mammoth, which turns the document's structure
// (headings, lists, tables) into HTML; the HTML path then reads it as text, so
// a .docx and the same text saved as HTML give the same passages.
import type { HeadingMark } from '../../core/source-location';
import { parseHtml } from './html';
import { RefusedFile } from './refusal';
import { errorMessage } from '../../core/errors';

export async function parseDocx(
  name: string,
  bytes: Uint8Array,
): Promise<{ text: string; title?: string; headings?: HeadingMark[] }> {
  const mammoth = (await import('mammoth')).default;
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      // The browser build reads `arrayBuffer`, the Node build `buffer`; both accept an ArrayBuffer.
      { arrayBuffer, buffer: arrayBuffer } as unknown as { arrayBuffer: ArrayBuffer },
      {
        styleMap: ["p[style-name='Title'] => h1:fresh"],
        // Images are not text: skip encoding them as data URLs.
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
        externalFileAccess: false,
      },
    );
    html = result.value;
  } catch (e) {
    throw new RefusedFile(
      name,
      `the Word document could not be read (${errorMessage(e)}); open it in Word or LibreOffice and save it again as .docx`,
    );
  }
  return parseHtml(html);
}
