// The shape of a prompted candidate: a short conversation, not a template to fill.
//
// Small instruct models copy whatever a described template offers (SmolLM2-135M answered "1-5",
// Qwen2.5-Coder-0.5B "the next 1-2 sentences, from the passage, …": see docs/benchmarks-answer.md),
// so the answer is written the way a chat model answers naturally: passage and question in the
// user's turn, the answer in the assistant's, stopped after one or two sentences (./sentences.ts).
// Each critique is then one more turn of the same conversation whose reply is a single word held
// to its alternatives by a grammar, and the probability of each alternative is read where that
// word starts. Engines reuse the conversation's prefix (llama.cpp's prompt cache, web-llm's KV
// cache when a conversation continues), so a critique costs its question and one token.
//
// One description serves both engines: web-llm gets ./form's EBNF (xgrammar), llama.cpp the GBNF
// of ./wllama/gbnf.ts, and the same parser reads a reply back.

export type SlotName = 'rel' | 'sup' | 'use' | 'decision';

export type FormItem =
  /** Fixed text (a few forms still carry a label). */
  | { kind: 'literal'; text: string }
  /**
   * A reflection slot. `alternatives[k]` is alternative k's canonical spelling; `spellings[k]`,
   * when given, lists every string that counts as alternative k (the canonical one first). A
   * grammar allows every spelling; a reader adds the probabilities of one alternative's spellings.
   */
  | { kind: 'slot'; name: SlotName; alternatives: readonly string[]; spellings?: readonly (readonly string[])[] }
  /** Free text up to the end of the line. */
  | { kind: 'text' };

export type Form = readonly FormItem[];

// A reply starts a new message, so its first word carries no leading space and is usually
// capitalised; both cases count (a model that prefers "yes" would otherwise have its choice
// masked away and its probability moved to whatever the mask leaves). Alternatives differ in
// their first character, so the first token decides the branch.
export const REL_ALTS = ['Yes', 'No'] as const;
export const SUP_ALTS = ['Yes', 'Partially', 'No'] as const;
export const USE_ALTS = ['1', '2', '3', '4', '5'] as const;
export const DECISION_ALTS = ['Yes', 'No'] as const;

const bothCases = (alts: readonly string[]): (readonly string[])[] =>
  alts.map((a) => {
    const lower = a.toLowerCase();
    return lower === a ? [a] : [a, lower];
  });

const slot = (name: SlotName, alternatives: readonly string[]): FormItem => ({
  kind: 'slot',
  name,
  alternatives,
  spellings: bothCases(alternatives),
});

/** Every accepted spelling of each alternative of a slot, canonical first. */
export function slotSpellings(item: Extract<FormItem, { kind: 'slot' }>): readonly (readonly string[])[] {
  return item.spellings ?? item.alternatives.map((a) => [a]);
}

/** The slot item called `name` in a form. */
export function findSlot(form: Form, name: SlotName): Extract<FormItem, { kind: 'slot' }> | undefined {
  return form.find((f): f is Extract<FormItem, { kind: 'slot' }> => f.kind === 'slot' && f.name === name);
}

/** The critique replies: one word each. */
export const REL_REPLY: Form = [slot('rel', REL_ALTS)];
export const SUP_REPLY: Form = [slot('sup', SUP_ALTS)];
export const USE_REPLY: Form = [slot('use', USE_ALTS)];
export const DECISION_REPLY: Form = [slot('decision', DECISION_ALTS)];

/** The reply forms whose slots an engine spells in its own tokens. */
export const SLOT_REPLIES: readonly Form[] = [REL_REPLY, SUP_REPLY, USE_REPLY, DECISION_REPLY];

/** One line of free text: the grammar of a short constrained completion (e.g. a search query). */
export const ONE_LINE: Form = [{ kind: 'text' }];

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
      // The grammar's [^\n]+ lets a model write only blanks; that is no text either.
      if (!out.text.trim()) out.missing.push('text');
      pos = end;
    } else {
      // Longest first so a short alternative could never shadow a longer one sharing its start.
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
  return items.filter((it) => it.kind !== 'literal').map((it) => (it.kind === 'slot' ? `${it.name} slot` : 'text'));
}
