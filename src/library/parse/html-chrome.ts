// What of a web page is its chrome (menus, navigation, pop-ups, controls) rather than what it
// says, decided per element from its name and attributes alone, so the streaming parser in
// html.ts can skip it without building a DOM. Measured against Mozilla's Readability and
// Defuddle on real documentation sites in `npm run bench -- html-main`
// (docs/retrieval.md#pages-without-their-chrome).

/** Elements whose content is never text a reader sees. */
const NEVER_TEXT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'select',
  'canvas',
  'video',
  'audio',
]);

/** Controls and navigation: text a reader clicks, not reads. */
const CHROME = new Set(['nav', 'button', 'dialog', 'menu']);

/** ARIA roles of chrome (the WAI-ARIA landmark and widget roles that hold no article text). */
const CHROME_ROLES = new Set([
  'navigation',
  'menu',
  'menubar',
  'menuitem',
  'dialog',
  'alertdialog',
  'search',
  'toolbar',
  'tooltip',
  'banner',
  'contentinfo',
]);

/**
 * Navigation blocks marked by class, as documentation generators write them (DocBook's and
 * Sphinx's `navheader` / `navfooter` / `related`, a `toc` that repeats the headings below it,
 * a `sidebar`). Matched as whole class tokens, so `note-toc-entry` or `navy` never match.
 */
const CHROME_CLASSES = new Set([
  'nav',
  'navbar',
  'navheader',
  'navfooter',
  'navigation',
  'sidebar',
  'toc',
  'breadcrumb',
  'breadcrumbs',
  'skip-to-content',
]);

const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/** True when the element's text is never shown as the page's content. */
export function isNeverText(name: string): boolean {
  return NEVER_TEXT.has(name);
}

/**
 * True when the element is chrome or hidden: a control, navigation, a menu or pop-up, or an
 * element the page hides (`hidden`, `aria-hidden`, an inline `display: none`).
 */
export function isChrome(name: string, attribs: Record<string, string>): boolean {
  if (CHROME.has(name)) return true;
  if ('hidden' in attribs) return true;
  if (attribs['aria-hidden']?.trim().toLowerCase() === 'true') return true;
  const role = attribs.role?.trim().toLowerCase();
  if (role?.split(/\s+/).some((r) => CHROME_ROLES.has(r))) return true;
  if (attribs.style && HIDING_STYLE.test(attribs.style)) return true;
  const cls = attribs.class;
  if (cls?.split(/\s+/).some((c) => CHROME_CLASSES.has(c.toLowerCase()))) return true;
  // A table of contents named by id, as Node's API manual writes it (`<details id="toc">`).
  if (attribs.id?.trim().toLowerCase() === 'toc') return true;
  return false;
}

/** `<main>` or an element with the `main` role: where the page says its content is. */
export function isMain(name: string, attribs: Record<string, string>): boolean {
  return name === 'main' || attribs.role?.trim().toLowerCase() === 'main';
}

/** Sectioning elements: a header or footer inside one belongs to that section, not to the site. */
export function isSection(name: string): boolean {
  return name === 'article' || name === 'section' || name === 'aside' || name === 'main';
}

/** Text of a link that only marks its heading's anchor ("#", "¶", "§"): not part of the heading. */
export function isAnchorMark(text: string): boolean {
  return /^\s*[#¶§🔗]\s*$/u.test(text);
}
