// Which file names are documents, without importing any parser (the page's
// folder walk uses it on the main thread).

/**
 * File extensions the library reads; a folder walk skips everything else. Images are
 * pages to recognise; TIFF and HEIC are listed so a folder of them is refused with the
 * reason (browsers cannot decode them) rather than skipped without a word.
 */
export const DOCUMENT_EXTENSIONS = [
  'txt',
  'text',
  'md',
  'markdown',
  'mdown',
  'mkd',
  'html',
  'htm',
  'xhtml',
  'pdf',
  'docx',
  'epub',
  'png',
  'jpg',
  'jpeg',
  'webp',
  'tif',
  'tiff',
  'heic',
  'heif',
];

export function isDocumentName(name: string): boolean {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext !== undefined && DOCUMENT_EXTENSIONS.includes(ext);
}
