// The form of ./form.ts in llama.cpp's GBNF dialect. When the model's token ids
// of a slot's spellings are known, the slot is written as token ids (`<[id]>`):
// the model then writes each spelling one way only, so the probability of an
// alternative is exactly that of its spellings' first tokens (./slots.ts).
import { slotSpellings, type Form, type SlotName } from '../form';

/** Token ids of each spelling of each alternative of a slot: [alternative][spelling] → ids. */
export type SlotTokens = Partial<Record<SlotName, readonly (readonly (readonly number[])[])[]>>;

export function gbnfString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

export function formToGbnf(form: Form, tokens: SlotTokens = {}): string {
  const rules: string[] = [];
  const root = form.map((item) => {
    switch (item.kind) {
      case 'literal':
        return gbnfString(item.text);
      case 'text':
        if (!rules.some((r) => r.startsWith('text ::='))) rules.push('text ::= [^\\n]+');
        return 'text';
      case 'slot': {
        const ids = tokens[item.name];
        const alts =
          ids && ids.length === item.alternatives.length
            ? ids.flat().map((seq) => seq.map((id) => `<[${id}]>`).join(' '))
            : slotSpellings(item).flat().map(gbnfString);
        rules.push(`${item.name} ::= ${alts.join(' | ')}`);
        return item.name;
      }
    }
  });
  return [`root ::= ${root.join(' ')}`, ...rules].join('\n');
}
