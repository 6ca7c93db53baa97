// The shape of a prompted-mode reply: fixed labels, free answer text, and
// reflection slots that may only take their group's alternatives. One form
// yields both the grammar that constrains decoding and the parser that reads
// the reply back, so the two cannot drift apart.

export type SlotName = 'rel' | 'sup' | 'use' | 'next' | 'decision';

export type FormItem =
  | { kind: 'literal'; text: string }
  | { kind: 'slot'; name: SlotName; alternatives: readonly string[] }
  /** Free text up to the end of the line. */
  | { kind: 'text' };

export type Form = readonly FormItem[];

// Alternatives start with a space so each is one ordinary word-token after the
// label, which is how instruct models naturally write "Label: word". First
// characters differ within a group, so the branch is decided by one token.
export const REL_ALTS = [' relevant', ' irrelevant'] as const;
export const SUP_ALTS = [' fully', ' partially', ' no'] as const;
export const USE_ALTS = [' 1', ' 2', ' 3', ' 4', ' 5'] as const;
export const NEXT_ALTS = [' retrieve', ' continue', ' done'] as const;
export const DECISION_ALTS = [' yes', ' no'] as const;

export const SEGMENT_WITH_PASSAGE: Form = [
  { kind: 'literal', text: 'Relevance:' },
  { kind: 'slot', name: 'rel', alternatives: REL_ALTS },
  { kind: 'literal', text: '\nAnswer:' },
  { kind: 'text' },
  { kind: 'literal', text: '\nSupport:' },
  { kind: 'slot', name: 'sup', alternatives: SUP_ALTS },
  { kind: 'literal', text: '\nUtility:' },
  { kind: 'slot', name: 'use', alternatives: USE_ALTS },
  { kind: 'literal', text: '\nNext:' },
  { kind: 'slot', name: 'next', alternatives: NEXT_ALTS },
];

export const SEGMENT_WITHOUT_PASSAGE: Form = [
  { kind: 'literal', text: 'Answer:' },
  { kind: 'text' },
  { kind: 'literal', text: '\nUtility:' },
  { kind: 'slot', name: 'use', alternatives: USE_ALTS },
  { kind: 'literal', text: '\nNext:' },
  { kind: 'slot', name: 'next', alternatives: NEXT_ALTS },
];

export const RETRIEVAL_DECISION: Form = [
  { kind: 'literal', text: 'Evidence needed:' },
  { kind: 'slot', name: 'decision', alternatives: DECISION_ALTS },
];

const ebnfString = (s: string): string => JSON.stringify(s);

/** The form as an EBNF grammar for web-llm's `response_format: { type: 'grammar' }` (xgrammar syntax). */
export function formToGrammar(form: Form): string {
  const rules: string[] = [];
  const root = form.map((item) => {
    switch (item.kind) {
      case 'literal':
        return ebnfString(item.text);
      case 'text':
        if (!rules.some((r) => r.startsWith('text ::='))) rules.push('text ::= [^\\n]+');
        return 'text';
      case 'slot':
        rules.push(`${item.name} ::= ${item.alternatives.map(ebnfString).join(' | ')}`);
        return item.name;
    }
  });
  return [`root ::= ${root.join(' ')}`, ...rules].join('\n');
}

export interface ParsedForm {
  /** Index of the chosen alternative per slot that was written. */
  chosen: Partial<Record<SlotName, number>>;
  /** Character span of each written slot in the reply. */
  spans: Partial<Record<SlotName, [number, number]>>;
  /** The free text, untrimmed, and its span. */
  text?: string;
  textSpan?: [number, number];
  /** Items never reached (truncated) or not matching (malformed). */
  missing: string[];
}

/** Reads a reply against its form. Never throws: whatever does not match is listed in `missing`. */
export function parseForm(form: Form, reply: string): ParsedForm {
  const out: ParsedForm = { chosen: {}, spans: {}, missing: [] };
  let pos = 0;
  for (let i = 0; i < form.length; i++) {
    const item = form[i]!;
    if (item.kind === 'literal') {
      if (!reply.startsWith(item.text, pos)) {
        out.missing.push(...describe(form.slice(i)));
        return out;
      }
      pos += item.text.length;
    } else if (item.kind === 'text') {
      const nl = reply.indexOf('\n', pos);
      const end = nl < 0 ? reply.length : nl;
      out.text = reply.slice(pos, end);
      out.textSpan = [pos, end];
      if (end === pos) out.missing.push('answer text');
      pos = end;
    } else {
      // Longest first so ' no' could never shadow a longer alternative sharing its start.
      const order = item.alternatives.map((a, k) => [a, k] as const).sort((x, y) => y[0].length - x[0].length);
      const hit = order.find(([a]) => reply.startsWith(a, pos));
      if (!hit) {
        out.missing.push(...describe(form.slice(i)));
        return out;
      }
      out.chosen[item.name] = hit[1];
      out.spans[item.name] = [pos, pos + hit[0].length];
      pos += hit[0].length;
    }
  }
  return out;
}

function describe(items: Form): string[] {
  return items.filter((it) => it.kind !== 'literal').map((it) => (it.kind === 'slot' ? `${it.name} slot` : 'answer text'));
}

/** The answer text written so far in a partial reply, for streaming. */
export function partialText(form: Form, reply: string): string {
  let pos = 0;
  for (const item of form) {
    if (item.kind === 'literal') {
      const at = reply.indexOf(item.text, pos);
      if (at < 0) return '';
      pos = at + item.text.length;
    } else if (item.kind === 'text') {
      const nl = reply.indexOf('\n', pos);
      return reply.slice(pos, nl < 0 ? reply.length : nl).trim();
    }
  }
  return '';
}
