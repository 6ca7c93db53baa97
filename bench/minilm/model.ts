// A BERT encoder with the shape of all-MiniLM-L6-v2 (6 layers, 384 wide, 12 heads,
// 1536 feed-forward, 30,522-token vocabulary) and random weights, written at bench
// time (about 90 MB; never committed). Its outputs mean nothing; its cost per token
// is the real default embedder's, which is what the ingestion bench needs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bertEncoderGraph } from '../../scripts/real-models/bert-onnx';

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

/** The real embedder's graph (scripts/real-models/bert-onnx.ts) filled with seeded random weights. */
function encoderGraph(): Uint8Array {
  let seed = 1;
  const shape = { ...MINILM, typeVocab: 2, layerNormEps: 1e-12 };
  // LayerNorm scales are ones and biases zeros, as an untrained model starts.
  return bertEncoderGraph(shape, (name, rows, cols) =>
    name.endsWith('LayerNorm.weight')
      ? new Float32Array(rows * cols).fill(1)
      : cols === 1
        ? new Float32Array(rows)
        : randomNormal(rows * cols, seed++),
  );
}

/** Writes the model as `<dir>/<id>/` (config, tokenizer, onnx/model.onnx); `words` fill the vocabulary first. */
export function writeMiniLmShaped(dir: string, id: string, words: string[]): void {
  const root = join(dir, id);
  mkdirSync(join(root, 'onnx'), { recursive: true });
  const vocab = [...SPECIALS];
  const seen = new Set(vocab);
  for (const word of words) if (vocab.length < MINILM.vocab && !seen.has(word)) seen.add(word), vocab.push(word);
  for (let i = 0; vocab.length < MINILM.vocab; i++) vocab.push(`##filler${i}`);
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } });
  writeFileSync(
    join(root, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: { direction: 'Right', max_length: 512, strategy: 'LongestFirst', stride: 0 },
      padding: null,
      added_tokens: SPECIALS.map((t, i) => ({
        id: i,
        content: t,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      })),
      normalizer: { type: 'Lowercase' },
      pre_tokenizer: { type: 'Whitespace' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
        pair: [
          special('[CLS]'),
          { Sequence: { id: 'A', type_id: 0 } },
          special('[SEP]'),
          { Sequence: { id: 'B', type_id: 1 } },
          { SpecialToken: { id: '[SEP]', type_id: 1 } },
        ],
        special_tokens: Object.fromEntries(
          ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [vocab.indexOf(t)], tokens: [t] }]),
        ),
      },
      decoder: null,
      model: { type: 'WordLevel', vocab: Object.fromEntries(vocab.map((w, i) => [w, i])), unk_token: '[UNK]' },
    }),
  );
  writeFileSync(
    join(root, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      unk_token: '[UNK]',
      pad_token: '[PAD]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
    }),
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
