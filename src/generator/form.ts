// The shape of a prompted-mode reply: fixed labels, free answer text, and
// reflection slots that may only take their group's alternatives. One form
// yields both the grammar that constrains decoding and the parser that reads
// the reply back, so the two cannot drift apart.

export type SlotName = 'rel' | 'sup' | 'use' | 'next' | 'decision';

export type FormItem =
  | { kind: 'literal'; text: string }
  /**
   * A reflection slot. `alternatives[k]` is alternative k's canonical spelling;
   * `spellings[k]`, when given, lists every string that counts as alternative k
   * (the canonical one first). A grammar allows every spelling; a reader adds
   * the probabilities of one alternative's spellings.
   */
  | { kind: 'slot'; name: SlotName; alternatives: readonly string[]; spellings?: readonly (readonly string[])[] }
  /** Free text up to the end of the line. */
  | { kind: 'text' };

export type Form = readonly FormItem[];

// Alternatives start with a space, as instruct models write "Label: word". In
// Qwen2.5 and Llama-3 " relevant", " fully" and the like are one token, but " 1"…" 5"
// are two (" " then the digit), and in SentencePiece vocabularies (Llama-2,
// Phi-3.5) the space is a "▁" on the word; slot reading does not assume either.
// Words are also accepted capitalised: a model that prefers " Fully" would
// otherwise have its choice masked away and its probability moved to whatever
// lowercase token the mask leaves. Alternatives differ by their second
// character, so once the space is written the next token decides the branch.
export const REL_ALTS = [' relevant', ' irrelevant'] as const;
export const SUP_ALTS = [' fully', ' partially', ' no'] as const;
export const USE_ALTS = [' 1', ' 2', ' 3', ' 4', ' 5'] as const;
export const NEXT_ALTS = [' retrieve', ' continue', ' done'] as const;
export const DECISION_ALTS = [' yes', ' no'] as const;

const capitalised = (alts: readonly string[]): (readonly string[])[] =>
  alts.map((a) => {
    const cap = a.replace(/^( ?)(\p{Ll})/u, (_, s: string, c: string) => s + c.toUpperCase());
    return cap === a ? [a] : [a, cap];
  });

const slot = (name: SlotName, alternatives: readonly string[]): FormItem => ({
  kind: 'slot',
  name,
  alternatives,
  spellings: capitalised(alternatives),
});

/** Every accepted spelling of each alternative of a slot, canonical first. */
export function slotSpellings(item: Extract<FormItem, { kind: 'slot' }>): readonly (readonly string[])[] {
  return item.spellings ?? item.alternatives.map((a) => [a]);
}

/** The slot item called `name` in a form. */
export function findSlot(form: Form, name: SlotName): Extract<FormItem, { kind: 'slot' }> | undefined {
  return form.find((f): f is Extract<FormItem, { kind: 'slot' }> => f.kind === 'slot' && f.name === name);
}

export const SEGMENT_WITH_PASSAGE: Form = [
  { kind: 'literal', text: 'Relevance:' },
  slot('rel', REL_ALTS),
  { kind: 'literal', text: '\nAnswer:' },
  { kind: 'text' },
  { kind: 'literal', text: '\nSupport:' },
  slot('sup', SUP_ALTS),
  { kind: 'literal', text: '\nUtility:' },
  slot('use', USE_ALTS),
  { kind: 'literal', text: '\nNext:' },
  slot('next', NEXT_ALTS),
];

export const SEGMENT_WITHOUT_PASSAGE: Form = [
  { kind: 'literal', text: 'Answer:' },
  { kind: 'text' },
  { kind: 'literal', text: '\nUtility:' },
  slot('use', USE_ALTS),
  { kind: 'literal', text: '\nNext:' },
  slot('next', NEXT_ALTS),
];

/** One line of free text: the grammar of a short constrained completion (e.g. a search query). */
export const ONE_LINE: Form = [{ kind: 'text' }];

export const RETRIEVAL_DECISION: Form = [
  { kind: 'literal', text: 'Evidence needed:' },
  slot('decision', DECISION_ALTS),
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
        rules.push(`${item.name} ::= ${slotSpellings(item).flat().map(ebnfString).join(' | ')}`);
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
      // The grammar's [^\n]+ lets a model write only blanks; that is no answer either.
      if (!out.text.trim()) out.missing.push('answer text');
      pos = end;
    } else {
      // Longest first so ' no' could never shadow a longer alternative sharing its start.
      const order = slotSpellings(item)
        .flatMap((spellings, k) => spellings.map((a) => [a, k] as const))
        .sort((x, y) => y[0].length - x[0].length);
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
  return items
    .filter((it) => it.kind !== 'literal')
    .map((it) => (it.kind === 'slot' ? `${it.name} slot` : 'answer text'));
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
