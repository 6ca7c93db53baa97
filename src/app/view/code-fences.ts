// A model's answer split into prose and fenced code blocks, so a code fence is shown as code and
// not as its backticks. Pure text in, text parts out: the UI renders each part as a text node
// (model output is untrusted, never HTML). A fence not closed yet (a candidate still streaming)
// runs to the end of the text, as it will once closed.

export interface TextPart {
  code: boolean;
  text: string;
  /** The fence's language tag (```rust), when it has one. */
  lang?: string;
}

// The opening fence, its optional language tag and the rest of its line; the body up to the next fence or the end.
const FENCE = /```([\w+#.-]*)[^\S\n]*\n?([\s\S]*?)(?:\n?```|$)/g;

export function fencedParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(FENCE)) {
    if (m.index > at) parts.push({ code: false, text: text.slice(at, m.index) });
    const [, lang, body] = m;
    parts.push({ code: true, text: body ?? '', ...(lang ? { lang } : {}) });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ code: false, text: text.slice(at) });
  return parts;
}
