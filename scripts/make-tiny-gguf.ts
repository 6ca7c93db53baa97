// Writes tiny llama-architecture GGUF models that the real llama.cpp (wllama)
// runs in the browser tests, deterministically and in milliseconds:
//   test/fixtures/models/tiny-gguf/chat.gguf     byte-level BPE, ChatML template; every spelling of
//                                                every slot alternative of src/generator/form.ts is one token
//   test/fixtures/models/tiny-gguf/native.gguf   the same plus the Self-RAG reflection tokens as single
//                                                tokens, wired to write "[Relevant]text[Fully supported][Utility:5]"
//   test/fixtures/models/tiny-gguf/bad-utf8.gguf writes the byte 0xFF, which is never valid UTF-8
// Attention and feed-forward weights are random but their output projections are
// zero, so the engine runs every layer while the next-token logits stay a closed
// form of the current token (tinyGgufLogits): tests compare the engine's
// probabilities with it exactly.
//
//   npx tsx scripts/make-tiny-gguf.ts
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ISREL, ISSUP, ISUSE, RETRIEVE } from '../src/core/reflection-tokens';
import { SLOT_REPLIES, slotSpellings, type Form } from '../src/generator/form';
import { buildBpe, toByteChars } from './tiny-gguf/bpe';
import { writeGguf, type GgufTensor } from './tiny-gguf/gguf';
import { mulberry32 as rng } from '../src/core/mulberry32';

const HERE = dirname(fileURLToPath(import.meta.url));
export const TINY_GGUF_DIR = join(resolve(HERE, '..'), 'test/fixtures/models/tiny-gguf');
export type TinyGgufVariant = 'chat' | 'native' | 'bad-utf8';
export const TINY_GGUF_VARIANTS: readonly TinyGgufVariant[] = ['chat', 'native', 'bad-utf8'];

const SOURCES = [
  fileURLToPath(import.meta.url),
  join(HERE, 'tiny-gguf/bpe.ts'),
  join(HERE, 'tiny-gguf/gguf.ts'),
  join(HERE, '../src/generator/form.ts'),
];

const DIM = 64;
const LAYERS = 2;
const HEADS = 4;
const FF = 128;
const CONTEXT = 4096;
const EPS = 1e-5;
const SEED = 20240611;

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const TEXT_WORDS = 'The answer is here. Lyon city France river food Paris capital of the a in and it known'.split(' ');
const NATIVE_TEXT = ['The', ' answer', ' is', ' here', '.'];
const CHAT_SPECIALS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];
export const REFLECTION_TOKENS = [
  ...Object.values(RETRIEVE),
  ...Object.values(ISREL),
  ...Object.values(ISSUP),
  ...ISUSE,
  '<paragraph>',
  '</paragraph>',
] as const;

/** Every spelling of every slot alternative in a form. */
export function formWords(form: Form): string[] {
  return form.flatMap((it) => (it.kind === 'literal' ? [it.text] : it.kind === 'slot' ? slotSpellings(it).flat() : []));
}

function gaussians(rand: () => number, n: number, scale: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = scale * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return out;
}

export interface TinyGguf {
  variant: TinyGgufVariant;
  bytes: Uint8Array;
  /** Token strings as stored (byte characters for ordinary tokens). */
  tokens: string[];
  embeddings: Float32Array;
  output: Float32Array;
  /** The id of the token spelled `text` (ordinary text or a special token), or -1. */
  tokenId(text: string): number;
}

export function buildTinyGguf(variant: TinyGgufVariant): TinyGguf {
  const words = [...SLOT_REPLIES.flatMap(formWords), 'system', 'user', 'assistant', ...TEXT_WORDS, ...NATIVE_TEXT];
  const bpe = buildBpe(words);
  const specials = variant === 'native' ? [...CHAT_SPECIALS, ...REFLECTION_TOKENS] : CHAT_SPECIALS;
  const tokens = [...bpe.tokens, ...specials];
  const types = tokens.map((t, i) => (i < bpe.tokens.length ? 1 : CHAT_SPECIALS.includes(t) ? 3 : 4)); // normal, control, user-defined
  const index = new Map(tokens.map((t, i) => [t, i]));
  const tokenId = (text: string): number => index.get(specials.includes(text) ? text : toByteChars(text)) ?? -1;
  const V = tokens.length;
  const rand = rng(SEED);

  // Dimension 0 is the same in every embedding, so a weight there shifts a token's logit everywhere.
  const emb = gaussians(rand, V * DIM, 1);
  for (let t = 0; t < V; t++) emb[t * DIM] = 3;
  const out = gaussians(rand, V * DIM, 1 / Math.sqrt(DIM));
  for (let t = 0; t < V; t++) out[t * DIM] = 0;
  const row = (t: number) => out.subarray(t * DIM, (t + 1) * DIM);
  // Bytes 0x80… alone are never valid UTF-8: keep them out unless the variant is about that.
  for (let b = 0x80; b < 0x100; b++) row(b)[0] = variant === 'bad-utf8' && b === 0xff ? 12 : -8;
  // A newline is likely after some tokens and not others, so free text ends after a few tokens.
  const nl = row(tokenId('\n'));
  for (let i = 1; i < DIM; i++) nl[i]! *= 2;
  nl[0] = 0.55;
  // A reply starts after the template's "assistant\n", and a critique's reply is one slot word: every
  // spelling of every alternative comes next after '\n' (a margin of about 4 over random logits, so
  // all sit among llama.cpp's reported top tokens, in varied shares). An answer, written without a
  // grammar, goes on from that word into " answer is here." and ends there.
  const prefer = preferrer(row, tokenId, emb);
  const slotWords = [...new Set(SLOT_REPLIES.flatMap(formWords))].filter((w) => tokenId(w) >= 0);
  for (const word of slotWords) prefer('\n', word, 4);
  if (variant === 'native') wireNative(prefer);
  else wireAnswer(prefer, slotWords);

  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [DIM, V], data: emb },
    { name: 'output_norm.weight', dims: [DIM], data: new Float32Array(DIM).fill(1) },
    { name: 'output.weight', dims: [DIM, V], data: out },
  ];
  for (let l = 0; l < LAYERS; l++) {
    const w = (name: string, dims: number[], zero = false): GgufTensor => ({
      name: `blk.${l}.${name}.weight`,
      dims,
      data: zero ? new Float32Array(dims[0]! * (dims[1] ?? 1)) : gaussians(rand, dims[0]! * (dims[1] ?? 1), 0.1),
    });
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [DIM], data: new Float32Array(DIM).fill(1) },
      w('attn_q', [DIM, DIM]),
      w('attn_k', [DIM, DIM]),
      w('attn_v', [DIM, DIM]),
      w('attn_output', [DIM, DIM], true),
      { name: `blk.${l}.ffn_norm.weight`, dims: [DIM], data: new Float32Array(DIM).fill(1) },
      w('ffn_gate', [DIM, FF]),
      w('ffn_up', [DIM, FF]),
      w('ffn_down', [FF, DIM], true),
    );
  }
  const eos = variant === 'native' ? '<|endoftext|>' : '<|im_end|>';
  const bytes = writeGguf(
    {
      'general.architecture': { type: 'string', value: 'llama' },
      'general.name': { type: 'string', value: `tiny-${variant}` },
      'llama.context_length': { type: 'u32', value: CONTEXT },
      'llama.embedding_length': { type: 'u32', value: DIM },
      'llama.block_count': { type: 'u32', value: LAYERS },
      'llama.feed_forward_length': { type: 'u32', value: FF },
      'llama.attention.head_count': { type: 'u32', value: HEADS },
      'llama.attention.head_count_kv': { type: 'u32', value: HEADS },
      'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: EPS },
      'llama.rope.dimension_count': { type: 'u32', value: DIM / HEADS },
      'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
      'tokenizer.ggml.tokens': { type: 'strings', value: tokens },
      'tokenizer.ggml.token_type': { type: 'i32s', value: types },
      'tokenizer.ggml.merges': { type: 'strings', value: bpe.merges },
      'tokenizer.ggml.bos_token_id': { type: 'u32', value: index.get('<|endoftext|>')! },
      'tokenizer.ggml.eos_token_id': { type: 'u32', value: index.get(eos)! },
      'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
      'tokenizer.chat_template': { type: 'string', value: CHATML_TEMPLATE },
    },
    tensors,
  );
  return { variant, bytes, tokens, embeddings: emb, output: out, tokenId };
}

/** Raises the logit of `to` after `from` by about `margin` (the shared dimension 0 is left alone). */
function preferrer(
  row: (t: number) => Float32Array,
  id: (s: string) => number,
  emb: Float32Array,
): (from: string, to: string, margin: number) => void {
  return (from, to, margin) => {
    const f = id(from);
    const src = rmsNorm(emb.subarray(f * DIM, (f + 1) * DIM));
    let sq = 0;
    for (let i = 1; i < DIM; i++) sq += src[i]! * src[i]!;
    const dst = row(id(to));
    for (let i = 1; i < DIM; i++) dst[i]! += (margin * src[i]!) / sq;
  };
}

/**
 * Native Self-RAG wiring: strong next-token preferences (a margin of about 14 over
 * random logits) so the model writes the reference's shape, with runner-up
 * alternatives close behind so every group's probabilities are informative.
 */
function wireNative(prefer: (from: string, to: string, margin: number) => void): void {
  for (const from of ['\n', ' ']) {
    prefer(from, RETRIEVE.retrieval, 14);
    prefer(from, RETRIEVE.noRetrieval, 13);
  }
  prefer('</paragraph>', ISREL.relevant, 14);
  prefer('</paragraph>', ISREL.irrelevant, 13);
  for (const from of [ISREL.relevant, ISREL.irrelevant, RETRIEVE.noRetrieval]) prefer(from, NATIVE_TEXT[0]!, 14);
  for (let i = 0; i + 1 < NATIVE_TEXT.length; i++) prefer(NATIVE_TEXT[i]!, NATIVE_TEXT[i + 1]!, 14);
  const last = NATIVE_TEXT[NATIVE_TEXT.length - 1]!;
  prefer(last, ISSUP.full, 14);
  prefer(last, ISSUP.partial, 13);
  prefer(last, ISSUP.none, 12);
  for (const sup of Object.values(ISSUP)) ISUSE.forEach((u, k) => prefer(sup, u, 10 + k));
  for (const u of ISUSE) {
    prefer(u, RETRIEVE.retrieval, 15);
    prefer(u, '<|endoftext|>', 12);
  }
}

/** The chat model's free answer: after its first word, " answer is here." and the end of the reply. */
function wireAnswer(prefer: (from: string, to: string, margin: number) => void, firstWords: string[]): void {
  for (const w of firstWords) prefer(w, NATIVE_TEXT[1]!, 9);
  for (let i = 1; i + 1 < NATIVE_TEXT.length; i++) prefer(NATIVE_TEXT[i]!, NATIVE_TEXT[i + 1]!, 9);
  prefer(NATIVE_TEXT[NATIVE_TEXT.length - 1]!, '<|im_end|>', 12);
}

function rmsNorm(x: ArrayLike<number>): Float32Array {
  let sq = 0;
  for (let i = 0; i < x.length; i++) sq += x[i]! * x[i]!;
  const s = 1 / Math.sqrt(sq / x.length + EPS);
  return Float32Array.from(x, (v) => v * s);
}

/** The exact next-token logits after token `prev` (the model's closed form; see the header). */
export function tinyGgufLogits(model: TinyGguf, prev: number): Float64Array {
  const n = rmsNorm(model.embeddings.subarray(prev * DIM, (prev + 1) * DIM));
  const V = model.tokens.length;
  const logits = new Float64Array(V);
  for (let t = 0; t < V; t++) {
    let s = 0;
    for (let i = 0; i < DIM; i++) s += model.output[t * DIM + i]! * n[i]!;
    logits[t] = s;
  }
  return logits;
}

export function tinyGgufPath(variant: TinyGgufVariant): string {
  return join(TINY_GGUF_DIR, `${variant}.gguf`);
}

export function tinyGgufsStale(): boolean {
  const newest = Math.max(...SOURCES.map((f) => statSync(f).mtimeMs));
  return TINY_GGUF_VARIANTS.some((v) => !existsSync(tinyGgufPath(v)) || statSync(tinyGgufPath(v)).mtimeMs < newest);
}

export function makeTinyGgufs(): { files: number; bytes: number } {
  mkdirSync(TINY_GGUF_DIR, { recursive: true });
  let bytes = 0;
  for (const v of TINY_GGUF_VARIANTS) {
    const m = buildTinyGguf(v);
    writeFileSync(tinyGgufPath(v), m.bytes);
    bytes += m.bytes.length;
  }
  return { files: TINY_GGUF_VARIANTS.length, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const r = makeTinyGgufs();
  console.log(
    `wrote ${r.files} GGUF models (${(r.bytes / 1e6).toFixed(2)} MB) to ${TINY_GGUF_DIR} in ${(performance.now() - t0).toFixed(0)} ms`,
  );
}
