// How accurate is slot reading? Over random logits in each critique turn's one-word
// reply, the probabilities the generator reads (from web-llm's top-5 log-probs along
// the sampled path) are compared with the exact marginal of each alternative:
// the sum, over every token path that spells it under the real grammar mask,
// of the product of the model's probabilities along the path. The error cannot
// exceed U / (1 − U), U being the mass the reader could not credit: outside the
// top 5, or top tokens that leave the branch open (see src/generator/webllm/slots.ts).
// The measured errors are in the test names.
import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../../src/core/ports';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import { EngineGenerator } from '../../../../src/generator/webllm/decoder';
import {
  DECISION_REPLY,
  findSlot,
  type Form,
  formToGrammar,
  parseForm,
  REL_REPLY,
  SUP_REPLY,
  slotSpellings,
  type SlotName,
  USE_REPLY,
} from '../../../../src/generator/form';
import { readSlotBounded, type TokenLogprob } from '../../../../src/generator/webllm/slots';
import { FaithfulEngine, noise, processLogits, type LogitContext } from '../../../doubles/faithful-engine';
import { FAMILIES, xg, type Family, type GrammarMatcher, type Vocab } from '../../../doubles/token-vocab';

const passage: Passage = { id: 'd#0', docId: 'd', title: 'Lyon', text: 'Lyon is a city in France.', index: 0 };
const FORMS: Record<SlotName, Form> = { rel: REL_REPLY, sup: SUP_REPLY, use: USE_REPLY, decision: DECISION_REPLY };
const SLOTS: SlotName[] = ['rel', 'sup', 'use', 'decision'];
const grammarOf = (name: SlotName): string => formToGrammar(FORMS[name]);
const TRIALS = 8;

type Regime = 'flat' | 'word-peaked';

const latin1 = (vocab: Vocab, ids: readonly number[]): string =>
  ids.map((i) => String.fromCharCode(...vocab.bytes[i]!)).join('');

/**
 * Random logits in a critique's reply (the whole reply is the slot word). 'flat': every token
 * gets uniform noise in [-3, 3], so the mass spreads over prefixes ("Y", "Ye", "Part") and both
 * cases alike. 'word-peaked': the tokens that continue a spelling get 8 + noise in [-3, 3], the
 * rest the same noise, as a real model's mass sits on whole words.
 */
function slotLogits(vocab: Vocab, seed: number, regime: Regime, name: SlotName): (ctx: LogitContext) => Float32Array {
  const byteTokens: number[] = [];
  for (let id = 0; id < vocab.size; id++)
    if (/^<0x[0-9A-F]{2}>$/.test(vocab.tokenizer.idToToken(id))) byteTokens.push(id);
  return (ctx) => {
    const logits = noise(vocab.size, [seed, ...ctx.ids], 3);
    if (regime === 'word-peaked') {
      // SentencePiece's byte tokens (<0x20> for a space) only stand for characters missing
      // from the vocabulary; a trained model gives them next to nothing.
      for (const id of byteTokens) logits[id] = logits[id]! - 20;
      const done = latin1(vocab, ctx.ids);
      for (const spellings of slotSpellings(findSlot(FORMS[name], name)!)) {
        for (const s of spellings) {
          if (!s.startsWith(done) || s === done) continue;
          const id = vocab.byBytes.get(s.slice(done.length));
          if (id !== undefined) logits[id] = 8 + logits[id]!;
        }
      }
    }
    return logits;
  };
}

/** The exact probability of each alternative, by walking every token path through the slot under the grammar. */
async function exactMarginals(
  vocab: Vocab,
  grammar: string,
  logitsOf: (ctx: LogitContext) => Float32Array,
  prefix: number[],
  slotStartByte: number,
  spellings: readonly (readonly string[])[],
): Promise<number[]> {
  const compiled = await vocab.compiler.compileGrammar(grammar);
  const matcher: GrammarMatcher = await xg().GrammarMatcher.createGrammarMatcher(compiled);
  for (const id of prefix) if (!matcher.acceptToken(id)) throw new Error('the prefix left the grammar');
  const out = spellings.map(() => 0);
  const compatible = (rest: string): number[] =>
    spellings.flatMap((ss, k) => (ss.some((s) => s.startsWith(rest) || rest.startsWith(s)) ? [k] : []));
  async function walk(ids: number[], onPath: number, depth: number): Promise<void> {
    if (depth > 12) throw new Error('the slot never closed');
    const mask = await matcher.getNextTokenBitmask();
    const probs = processLogits(logitsOf({ ids, vocab }), {
      mask,
      appeared: new Map(),
      temperature: 1,
      repetition_penalty: 1,
      frequency_penalty: 0,
      presence_penalty: 0,
    });
    const written = latin1(vocab, ids);
    for (let t = 0; t < vocab.size; t++) {
      const p = probs[t]!;
      if (!(p > 0)) continue;
      const text = written + String.fromCharCode(...vocab.bytes[t]!);
      const ks = text.length <= slotStartByte ? [-1, -2] : compatible(text.slice(slotStartByte));
      if (ks.length === 1) out[ks[0]!]! += onPath * p;
      else if (ks.length > 1) {
        if (!matcher.acceptToken(t)) throw new Error('the mask allowed a token the matcher refused');
        await walk([...ids, t], onPath * p, depth + 1);
        matcher.rollBack(1);
      }
    }
  }
  await walk(prefix, 1, 0);
  return out;
}

interface Measure {
  error: number;
  bound: number;
  mass: number;
}

async function measure(family: Family, regime: Regime): Promise<Record<SlotName, Measure[]>> {
  const results: Record<string, Measure[]> = { rel: [], sup: [], use: [], decision: [] };
  const vocab = (await FaithfulEngine.create({ family, script: [] })).vocab;
  for (let trial = 0; trial < TRIALS; trial++) {
    const logits = Object.fromEntries(
      SLOTS.map((name) => [name, slotLogits(vocab, 1000 * trial + 17, regime, name)]),
    ) as Record<SlotName, (ctx: LogitContext) => Float32Array>;
    // The answer turn writes a sentence; each critique turn gets the random logits of its slot.
    const engine = await FaithfulEngine.create({
      family,
      script: (call) => {
        const name = SLOTS.find((n) => call.grammar?.includes(`${n} ::=`));
        return name ? { logits: logits[name] } : { text: 'Lyon is a city in France, on the Rhone.' };
      },
    });
    type Reply = {
      choices: { message: { content: string | null }; logprobs?: { content: unknown[] | null } | null }[];
    };
    const replies = new Map<SlotName, { reply: Reply; ids: number[] }>();
    const chat = engine.chatCompletion.bind(engine);
    engine.chatCompletion = (async (r: Parameters<typeof chat>[0]) => {
      const reply = (await chat(r)) as Reply;
      const grammar = r.response_format?.type === 'grammar' ? r.response_format.grammar : undefined;
      const name = SLOTS.find((n) => grammar?.includes(`${n} ::=`));
      if (name) replies.set(name, { reply, ids: engine.calls.at(-1)!.ids });
      return reply;
    }) as typeof engine.chatCompletion;
    const generator = new EngineGenerator(engine as unknown as ChatEngine);
    const [seg] = await generator.generateSegments([{ question: 'Where is Lyon?', previous: [], passage }]);
    const decision = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [] });
    for (const name of SLOTS) {
      const { reply } = replies.get(name)!;
      const message = reply.choices[0]!.message.content ?? '';
      const tokens = (reply.choices[0]!.logprobs?.content ?? []) as TokenLogprob[];
      const form = FORMS[name];
      const parsed = parseForm(form, message);
      expect(parsed.missing).toEqual([]);
      const span = parsed.spans[name]!;
      const spellings = slotSpellings(findSlot(form, name)!);
      const read = readSlotBounded(tokens, message, span, spellings)!;
      const fromGenerator = (
        {
          rel: seg!.rel && [seg!.rel.relevant, seg!.rel.irrelevant],
          sup: seg!.sup && [seg!.sup.full, seg!.sup.partial, seg!.sup.none],
          use: seg!.use,
          decision: [decision.retrieval, decision.noRetrieval],
        } as Record<string, number[] | undefined>
      )[name];
      expect(fromGenerator).toEqual(read.probs); // the generator reads exactly this
      const exact = await exactMarginals(vocab, grammarOf(name), logits[name], [], 0, spellings);
      const mass = exact.reduce((a, b) => a + b, 0);
      const error = Math.max(...read.probs.map((p, k) => Math.abs(p - exact[k]! / mass)));
      const u = read.ambiguous + read.unseen;
      results[name]!.push({ error, bound: u / (1 - u), mass });
    }
  }
  return results as Record<SlotName, Measure[]>;
}

for (const regime of ['flat', 'word-peaked'] as const) {
  describe(`slot reading vs exact marginals, ${regime} random logits at the slots (${TRIALS} trials)`, async () => {
    for (const family of FAMILIES) {
      const results = await measure(family, regime);
      for (const name of SLOTS) {
        const ms = results[name];
        const max = Math.max(...ms.map((m) => m.error));
        const mean = ms.reduce((a, m) => a + m.error, 0) / ms.length;
        const bound = Math.max(...ms.map((m) => m.bound));
        it(`${family} ${name}: max |error| ${max.toFixed(4)}, mean ${mean.toFixed(4)}; each within its bound U/(1-U) (largest ${bound.toFixed(4)})`, () => {
          for (const m of ms) {
            expect(m.mass).toBeCloseTo(1, 6); // every path through the slot lands on an alternative
            expect(m.error).toBeLessThanOrEqual(m.bound + 1e-9);
            // With the mass on whole words, the top 5 hold nearly all of it (a regression guard on fixed seeds).
            if (regime === 'word-peaked') expect(m.bound).toBeLessThan(0.06);
          }
        });
      }
    }
  });
}
