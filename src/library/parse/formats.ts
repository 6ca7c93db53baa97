// Which file names are documents, without importing any parser (the page's
// folder walk uses it on the main thread).

/** File extensions the library reads; a folder walk skips everything else. */
export const DOCUMENT_EXTENSIONS = ['txt', 'text', 'md', 'markdown', 'mdown', 'mkd', 'html', 'htm', 'xhtml', 'pdf', 'docx', 'epub'];

export function isDocumentName(name: string): boolean {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext !== undefined && DOCUMENT_EXTENSIONS.includes(ext);
}
