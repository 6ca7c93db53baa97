// The llama.cpp side of the generator that runs in Node: the GBNF dialect of the
// one form, the vocabulary read from a real GGUF header, slot reading by token id,
// and the tiny GGUF writer itself.
import { describe, expect, it } from 'vitest';
import { buildTinyGguf, tinyGgufLogits } from '../../../../scripts/make-tiny-gguf';
import { readVocab, tokenIds } from '../../../../workers/wllama/vocab';
import { DECISION_REPLY, type Form, SLOT_REPLIES, slotSpellings } from '../../../../src/generator/form';
import { formToGbnf, gbnfString } from '../../../../src/generator/wllama/gbnf';
import { readSlotIds, tokenAt } from '../../../../src/generator/wllama/slots';
import type { WllamaTokenLogprob } from '../../../../src/generator/wllama/protocol';

describe('GBNF dialect of the form', () => {
  it('lists exactly the spellings the form lists, as strings or as token ids', () => {
    for (const form of SLOT_REPLIES) {
      const g = formToGbnf(form);
      for (const item of form) {
        if (item.kind === 'slot')
          expect(g).toContain(`${item.name} ::= ${slotSpellings(item).flat().map(gbnfString).join(' | ')}`);
      }
    }
    const ids = formToGbnf(DECISION_REPLY, { decision: [[[7], [8, 9]], [[10]]] });
    expect(ids).toBe('root ::= decision\ndecision ::= <[7]> | <[8]> <[9]> | <[10]>');
  });

  it('follows a form it has never seen (new alternatives, quotes, newlines)', () => {
    const form: Form = [
      { kind: 'literal', text: 'Say "x"\\\n:' },
      { kind: 'slot', name: 'rel', alternatives: [' Relevant', ' relevant', ' no'] },
      { kind: 'text' },
    ];
    expect(formToGbnf(form)).toBe(
      'root ::= "Say \\"x\\"\\\\\\n:" rel text\nrel ::= " Relevant" | " relevant" | " no"\ntext ::= [^\\n]+',
    );
    // Falls back to strings when the ids do not cover every alternative.
    expect(formToGbnf(form, { rel: [[[1]], [[2]]] })).toContain('rel ::= " Relevant" | " relevant" | " no"');
  });
});

describe('vocabulary from a GGUF header', () => {
  const model = buildTinyGguf('native');

  it('reads the tokens and spells words, special tokens included, as their token ids', async () => {
    const vocab = await readVocab(new Blob([model.bytes as Uint8Array<ArrayBuffer>]));
    expect(vocab?.model).toBe('gpt2');
    expect(vocab?.tokens).toEqual(model.tokens);
    const ids = tokenIds(vocab!, ['Partially', '[No support / Contradictory]', '3', 'Lyonnaise']);
    expect(ids[0]).toEqual([model.tokenId('Partially')]);
    expect(ids[1]).toEqual([model.tokenId('[No support / Contradictory]')]);
    expect(ids[2]).toEqual([model.tokenId('3')]);
    // A word outside the vocabulary is still spelled, by longer pieces first.
    expect(ids[3]!.length).toBeGreaterThan(1);
    expect(ids[3]!.map((i) => model.tokens[i]).join('')).toBe('Lyonnaise');
  });

  it('says null for a file that is not GGUF', async () => {
    expect(await readVocab(new Blob([new TextEncoder().encode('not a model')]))).toBeNull();
  });
});

describe('slot probabilities by token id', () => {
  const tok = (id: number, token: string, logprob: number, top: [number, number][]): WllamaTokenLogprob => ({
    id,
    token,
    bytes: null,
    logprob,
    top_logprobs: top.map(([i, l]) => ({ id: i, token: '', bytes: null, logprob: l })),
  });

  it('normalises over the group where the reply word begins, adding up the spellings of each alternative', () => {
    // "Yes" / "yes" (21, 22), "No" / "no" (23, 24): the first token of the reply decides.
    const tokens = [
      tok(22, 'yes', Math.log(0.3), [
        [22, Math.log(0.3)],
        [21, Math.log(0.1)],
        [23, Math.log(0.2)],
        [99, Math.log(0.35)],
      ]),
    ];
    expect(tokenAt(tokens, 0)).toBe(0);
    const p = readSlotIds(tokens, 0, [
      [[21], [22]],
      [[23], [24]],
    ])!;
    // 99 is outside the group; 24 was not reported and counts as 0.
    [0.4 / 0.6, 0.2 / 0.6].forEach((want, k) => expect(p[k]).toBeCloseTo(want, 12));
  });

  it('gives null when the reply does not hold an alternative there, or two alternatives start alike', () => {
    expect(readSlotIds([tok(5, 'x', -1, [])], 0, [[[1]], [[2]]])).toBeNull();
    expect(readSlotIds([tok(1, 'P', -1, [])], 0, [[[1, 2]], [[1, 3]]])).toBeNull();
  });
});

describe('tiny GGUF models', () => {
  it('are written byte for byte the same every time', () => {
    expect(Buffer.from(buildTinyGguf('chat').bytes).equals(Buffer.from(buildTinyGguf('chat').bytes))).toBe(true);
  });

  it("wire the native model's reflection tokens: after </paragraph> the relevance tokens lead", () => {
    const m = buildTinyGguf('native');
    const logits = tinyGgufLogits(m, m.tokenId('</paragraph>'));
    const order = [...logits.keys()].sort((a, b) => logits[b]! - logits[a]!);
    expect(
      order
        .slice(0, 2)
        .map((i) => m.tokens[i])
        .sort(),
    ).toEqual(['[Irrelevant]', '[Relevant]']);
  });
});

describe('npm run models -- --gguf', () => {
  it('writes a catalogue model into models/gguf/ and refuses what is not a GGUF model', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { downloadGguf } = await import('../../../../scripts/models-gguf');
    const { parseArgs } = await import('../../../../scripts/models');
    const out = mkdtempSync(join(tmpdir(), 'gguf-'));
    const asked: string[] = [];
    const fake = (async (url: string) => {
      asked.push(url);
      return new Response(new Uint8Array([0x47, 0x47, 0x55, 0x46]));
    }) as unknown as typeof fetch;
    const [file] = await downloadGguf('qwen2.5-0.5b-gguf', out, fake, () => {});
    expect(asked).toEqual([
      'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    ]);
    expect(file).toBe(join(out, 'gguf', 'qwen2.5-0.5b-instruct-q4_k_m.gguf'));
    expect(readFileSync(file!, 'latin1')).toBe('GGUF');
    await expect(downloadGguf('not-a-model', out, fake)).rejects.toThrow(/neither a GGUF model id/);
    expect(parseArgs(['--gguf', 'qwen2.5-0.5b-gguf']).gguf).toEqual(['qwen2.5-0.5b-gguf']);
  });
});
