// A BERT encoder with the shape of all-MiniLM-L6-v2 (6 layers, 384 wide, 12 heads,
// 1536 feed-forward, 30,522-token vocabulary) and random weights, written at bench
// time (about 90 MB; never committed). Its outputs mean nothing; its cost per token
// is the real default embedder's, which is what the ingestion bench needs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLOAT, GraphBuilder, INT64 } from '../../scripts/tiny-models/onnx-graph';

export const MINILM = { layers: 6, hidden: 384, heads: 12, ff: 1536, vocab: 30522, positions: 512 } as const;
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

function randomNormal(n: number, seed: number, scale = 0.02): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 4294967296;
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(next()));
    const t = 2 * Math.PI * next();
    out[i] = r * Math.cos(t) * scale;
    if (i + 1 < n) out[i + 1] = r * Math.sin(t) * scale;
  }
  return out;
}

function encoderGraph(): Uint8Array {
  const { layers, hidden: H, heads, ff, vocab, positions } = MINILM;
  const head = H / heads;
  let seed = 1;
  const g = new GraphBuilder();
  const w = (rows: number, cols: number) => g.floats(randomNormal(rows * cols, seed++), [rows, cols]);
  const b = (n: number) => g.floats(new Float32Array(n), [n]);
  const ones = (n: number) => g.floats(new Float32Array(n).fill(1), [n]);
  const ln = (x: string) => g.op('LayerNormalization', [x, ones(H), b(H)], { axis: -1 });
  const dense = (x: string, rows: number, cols: number) => g.op('Add', [g.op('MatMul', [x, w(rows, cols)]), b(cols)]);

  const ids = g.input('input_ids', INT64, ['batch', 'sequence']);
  const mask = g.input('attention_mask', INT64, ['batch', 'sequence']);
  const types = g.input('token_type_ids', INT64, ['batch', 'sequence']);
  const seqLen = g.op('Slice', [g.op('Shape', [ids]), g.int64s([1]), g.int64s([2])]);
  const pos = g.op('Slice', [w(positions, H), g.int64s([0]), seqLen, g.int64s([0])]);
  let x = ln(g.op('Add', [g.op('Add', [g.op('Gather', [w(vocab, H), ids]), pos]), g.op('Gather', [w(2, H), types])]));
  const maskF = g.op('Cast', [mask], { to: FLOAT });
  const bias = g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', [g.floats([1]), maskF]), g.floats([-10000])]), g.int64s([1, 2])]);
  const split = g.int64s([0, 0, heads, head]);
  const merge = g.int64s([0, 0, H]);
  for (let l = 0; l < layers; l++) {
    const q = g.op('Transpose', [g.op('Reshape', [dense(x, H, H), split])], { perm: [0, 2, 1, 3] });
    const k = g.op('Transpose', [g.op('Reshape', [dense(x, H, H), split])], { perm: [0, 2, 3, 1] });
    const v = g.op('Transpose', [g.op('Reshape', [dense(x, H, H), split])], { perm: [0, 2, 1, 3] });
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, k]), g.floats([1 / Math.sqrt(head)])]), bias]);
    const ctx = g.op('Reshape', [g.op('Transpose', [g.op('MatMul', [g.op('Softmax', [scores], { axis: -1 }), v])], { perm: [0, 2, 1, 3] }), merge]);
    x = ln(g.op('Add', [dense(ctx, H, H), x]));
    const up = dense(x, H, ff);
    const gelu = g.op('Mul', [g.op('Mul', [up, g.floats([0.5])]), g.op('Add', [g.floats([1]), g.op('Erf', [g.op('Mul', [up, g.floats([Math.SQRT1_2])])])])]);
    x = ln(g.op('Add', [dense(gelu, ff, H), x]));
  }
  g.op('Identity', [x], {}, 'last_hidden_state');
  g.output('last_hidden_state', FLOAT, ['batch', 'sequence', H]);
  return g.encode('minilm-shaped');
}

/** Writes the model as `<dir>/<id>/` (config, tokenizer, onnx/model.onnx); `words` fill the vocabulary first. */
export function writeMiniLmShaped(dir: string, id: string, words: string[]): void {
  const root = join(dir, id);
  mkdirSync(join(root, 'onnx'), { recursive: true });
  const vocab = [...SPECIALS];
  const seen = new Set(vocab);
  for (const word of words) if (vocab.length < MINILM.vocab && !seen.has(word)) (seen.add(word), vocab.push(word));
  for (let i = 0; vocab.length < MINILM.vocab; i++) vocab.push(`##filler${i}`);
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } });
  writeFileSync(
    join(root, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: { direction: 'Right', max_length: 512, strategy: 'LongestFirst', stride: 0 },
      padding: null,
      added_tokens: SPECIALS.map((t, i) => ({ id: i, content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: { type: 'Lowercase' },
      pre_tokenizer: { type: 'Whitespace' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
        pair: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]'), { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
        special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [vocab.indexOf(t)], tokens: [t] }])),
      },
      decoder: null,
      model: { type: 'WordLevel', vocab: Object.fromEntries(vocab.map((w, i) => [w, i])), unk_token: '[UNK]' },
    }),
  );
  writeFileSync(
    join(root, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, unk_token: '[UNK]', pad_token: '[PAD]', cls_token: '[CLS]', sep_token: '[SEP]' }),
  );
  writeFileSync(
    join(root, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: MINILM.hidden,
      num_hidden_layers: MINILM.layers,
      num_attention_heads: MINILM.heads,
      intermediate_size: MINILM.ff,
      vocab_size: MINILM.vocab,
      max_position_embeddings: MINILM.positions,
      type_vocab_size: 2,
      // The browser would otherwise look for a quantized file on WASM; this model has one fp32 file.
      'transformers.js_config': { dtype: 'fp32' },
    }),
  );
  writeFileSync(join(root, 'onnx', 'model.onnx'), encoderGraph());
}
