// HTML reduced to text by string rewriting alone: no DOM is built, so nothing in
// the document (scripts, event handlers, images, styles) can run or load. The
// same code runs in the browser and in the Node indexer, so both see the same text.
import { normaliseNewlines } from './validate';

// Elements whose content is never text a reader sees.
const HIDDEN = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'head', 'select', 'canvas', 'video', 'audio'];
const BLOCK =
  'address|article|aside|blockquote|br|caption|dd|details|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|thead|tfoot|tr|ul';
// A tag: `<` then a letter or `/`, attributes possibly quoted (a quoted `>` does not end it).
const TAG = /<\/?[a-zA-Z][^\s/>]*(?:[^>"']|"[^"]*"|'[^']*')*>?/g;

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ',
  ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»',
  bull: '•', middot: '·', copy: '©', reg: '®', trade: '™', deg: '°', plusmn: '±', times: '×', divide: '÷',
  para: '¶', sect: '§', euro: '€', pound: '£', yen: '¥', cent: '¢', frac12: '½', frac14: '¼', frac34: '¾',
  shy: '', zwj: '\u200d', zwnj: '\u200c', larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔',
  le: '≤', ge: '≥', ne: '≠', asymp: '≈', infin: '∞', minus: '−', micro: 'µ', alpha: 'α', beta: 'β', gamma: 'γ',
  delta: 'δ', pi: 'π', sigma: 'σ', mu: 'μ', lambda: 'λ', theta: 'θ', omega: 'ω',
  aacute: 'á', agrave: 'à', acirc: 'â', auml: 'ä', atilde: 'ã', aring: 'å', aelig: 'æ', ccedil: 'ç',
  eacute: 'é', egrave: 'è', ecirc: 'ê', euml: 'ë', iacute: 'í', igrave: 'ì', icirc: 'î', iuml: 'ï',
  ntilde: 'ñ', oacute: 'ó', ograve: 'ò', ocirc: 'ô', ouml: 'ö', otilde: 'õ', oslash: 'ø', szlig: 'ß',
  uacute: 'ú', ugrave: 'ù', ucirc: 'û', uuml: 'ü', yacute: 'ý', yuml: 'ÿ',
  Aacute: 'Á', Agrave: 'À', Auml: 'Ä', Eacute: 'É', Ouml: 'Ö', Uuml: 'Ü', Ccedil: 'Ç', Ntilde: 'Ñ',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);?/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED[body] ?? whole;
  });
}

function firstMatch(re: RegExp, html: string): string | undefined {
  const m = re.exec(html)?.[1];
  if (!m) return undefined;
  const t = decodeEntities(m.replace(TAG, ' ')).replace(/\s+/g, ' ').trim();
  return t || undefined;
}

export function parseHtml(source: string): { text: string; title?: string } {
  let html = normaliseNewlines(source);
  html = html.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ').replace(/<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g, ' ');
  const title = firstMatch(/<title\b[^>]*>([\s\S]*?)<\/title\s*>/i, html) ?? firstMatch(/<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i, html);
  for (const tag of HIDDEN) {
    // An unclosed hidden element hides everything after it, as a browser would.
    html = html.replace(new RegExp(`<${tag}\\b(?:[^>"']|"[^"]*"|'[^']*')*>[\\s\\S]*?(?:<\\/${tag}\\s*>|$)`, 'gi'), ' ');
  }
  html = html
    .replace(/<!DOCTYPE[^>]*>|<\?[\s\S]*?>/gi, ' ')
    .replace(new RegExp(`<\\/?(?:${BLOCK})\\b(?:[^>"']|"[^"]*"|'[^']*')*>`, 'gi'), '\n')
    .replace(/<\/?t[dh]\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi, ' ')
    .replace(TAG, '');
  const text = decodeEntities(html)
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return title ? { text, title } : { text };
}
