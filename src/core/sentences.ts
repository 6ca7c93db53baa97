// The one sentence splitter of the answer path: the supporting-sentence highlight, the
// Markdown export's quoted sentences, CRAG's knowledge strips and RAGAS's context relevance
// all count sentences, so they must agree on what one is. A sentence ends at sentence
// punctuation, never at a line break inside a paragraph: HTML paragraphs and PDF text break
// lines mid-sentence ("…which we call\nunsafe superpowers."). A blank line still ends one.
// (Chunking, src/core/chunk.ts, cuts passages by its own rules and is not this splitter.)
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export interface SentenceSpan {
  text: string;
  /** Offsets of the trimmed sentence in the source text. */
  start: number;
  end: number;
}

// V8's segment iterator copies its whole input for every segment (quadratic on long texts, see
// chunk.ts): texts are segmented in windows cut at a paragraph break or a space.
const WINDOW = 8192;

/**
 * The text with every line break that is not part of a blank line turned into a space of the
 * same length, so offsets into it are offsets into the text.
 */
export function joinLines(text: string): string {
  return text.replace(/[^\S\n]*\n(?:[^\S\n]*\n)*/g, (m) =>
    m.indexOf('\n') === m.lastIndexOf('\n') ? ' '.repeat(m.length) : m,
  );
}

/** Sentences of a text with their positions, trimmed, without empty ones, in order. */
export function sentenceSpans(text: string): SentenceSpan[] {
  const flat = joinLines(text);
  const out: SentenceSpan[] = [];
  let pos = 0;
  while (pos < flat.length) {
    let end = Math.min(flat.length, pos + WINDOW);
    let safe = end === flat.length;
    if (!safe) {
      const para = flat.lastIndexOf('\n', end - 1);
      if (para >= pos) {
        end = para + 1;
        safe = true;
      } else {
        const space = flat.slice(pos, end).search(/\s\S*$/);
        if (space > 0) end = pos + space + 1;
      }
    }
    const segs = joinLowercaseStarts([...segmenter.segment(flat.slice(pos, end))]);
    // Without a safe cut the last sentence may run past the window: it is segmented again from its start.
    const keep = safe || segs.length < 2 ? segs.length : segs.length - 1;
    for (let i = 0; i < keep; i++) {
      const { segment, index } = segs[i]!;
      const lead = segment.length - segment.trimStart().length;
      const body = segment.trim();
      const start = pos + index + lead;
      if (body) out.push({ text: text.slice(start, start + body.length), start, end: start + body.length });
    }
    pos = keep === segs.length ? end : pos + segs[keep]!.index;
  }
  return out;
}

type Seg = { segment: string; index: number };

/**
 * Unicode's rules end a sentence at every "?" or "!" followed by a space, but technical prose puts
 * them mid-sentence ("the ? operator returns early", "call the panic! macro"): a sentence that
 * would start with a lowercase letter is the previous one going on.
 */
function joinLowercaseStarts(segs: Seg[]): Seg[] {
  const out: Seg[] = [];
  for (const s of segs) {
    const prev = out[out.length - 1];
    if (prev && /^\s*\p{Ll}/u.test(s.segment) && /[?!]["')\]]*\s*$/.test(prev.segment)) {
      out[out.length - 1] = { segment: prev.segment + s.segment, index: prev.index };
    } else out.push({ segment: s.segment, index: s.index });
  }
  return out;
}

/** Sentences of a text, trimmed, without empty ones, in order. */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((s) => s.text);
}

/** Whitespace- and case-insensitive form, for matching a quoted sentence to its source. */
export function normaliseSentence(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}
