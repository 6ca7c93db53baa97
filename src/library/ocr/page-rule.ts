// When a PDF page is recognised instead of read: its text layer is missing or
// too thin to be the page's text. Peers use about 50 characters (paperless-ngx's
// VALID_TEXT_LENGTH); we count characters that are not white space, so a scanned
// page carrying only a stamped page number or a running header ("Page 3 of 12",
// 10 characters) is still recognised, while a short real page of text (a title
// page, 50+ letters) keeps its exact text layer.

/** A page with fewer non-space characters than this in its text layer is recognised. */
export const MIN_TEXT_LAYER_CHARS = 50;

export function visibleChars(text: string): number {
  let n = 0;
  for (const ch of text) if (!/\s/u.test(ch)) n++;
  return n;
}

export function pageNeedsOcr(textLayer: string): boolean {
  return visibleChars(textLayer) < MIN_TEXT_LAYER_CHARS;
}
