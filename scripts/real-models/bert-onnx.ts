// A BERT encoder (the shape of all-MiniLM-L6-v2 and its kin) written as an ONNX graph from a
// weight source: the real weights of a safetensors file (scripts/real-models/fetch.ts) or random
// ones (bench/minilm/model.ts). The graph outputs `last_hidden_state`; transformers.js does the
// mean pooling and normalisation, as it does for the hub's exports.
//
// Two variants, the two transformers.js loads by default: fp32 (`onnx/model.onnx`, WebGPU) and q8
// (`onnx/model_quantized.onnx`, WASM), the latter as onnxruntime's dynamic quantisation writes it:
// int8 weights with one scale per output channel, activations quantised to uint8 at run time
// (DynamicQuantizeLinear → MatMulInteger), and the word-embedding table stored as int8 with one
// scale per token.
import { readFileSync } from 'node:fs';
import { FLOAT, GraphBuilder, INT64, INT8 } from '../tiny-models/onnx-graph';

export interface BertShape {
  layers: number;
  hidden: number;
  heads: number;
  ff: number;
  vocab: number;
  positions: number;
  typeVocab: number;
  layerNormEps: number;
}

/** A named weight: rows × cols (a vector when cols is 1), row-major as stored. */
export type WeightSource = (name: string, rows: number, cols: number) => Float32Array;

export type Variant = 'fp32' | 'q8';

/** Reads the float32 tensors of a safetensors file (its header is JSON, the data raw little-endian). */
export function readSafetensors(path: string): Map<string, { shape: number[]; data: Float32Array }> {
  const buf = readFileSync(path);
  const headerLen = Number(buf.readBigUInt64LE(0));
  const header = JSON.parse(buf.subarray(8, 8 + headerLen).toString('utf8')) as Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] }
  >;
  const base = 8 + headerLen;
  const out = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__' || t.dtype !== 'F32') continue;
    const [a, b] = t.data_offsets;
    // Copy: the file's buffer is not 4-byte aligned at every tensor.
    const bytes = Uint8Array.prototype.slice.call(buf, base + a, base + b);
    out.set(name, { shape: t.shape, data: new Float32Array(bytes.buffer, 0, (b - a) / 4) });
  }
  return out;
}

/** Hugging Face's BertModel names, checked against the expected shapes. */
export function safetensorsWeights(tensors: Map<string, { shape: number[]; data: Float32Array }>): WeightSource {
  return (name, rows, cols) => {
    const t = tensors.get(name);
    if (!t) throw new Error(`The weights have no tensor "${name}".`);
    const n = t.shape.reduce((x, y) => x * y, 1);
    if (n !== rows * cols) throw new Error(`"${name}" has shape [${t.shape}], expected ${rows} × ${cols}.`);
    return t.data;
  };
}

/** Transposes a row-major rows × cols matrix (torch's Linear stores [out, in]; MatMul wants [in, out]). */
function transpose(m: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = m[r * cols + c]!;
  return out;
}

/**
 * Symmetric int8 of a rows × cols matrix with one scale per column (`byColumn`, a MatMul's output
 * channel, as quantize_dynamic's per_channel writes it) or per row (an embedding table's token).
 */
function quantise(
  m: Float32Array,
  rows: number,
  cols: number,
  byColumn: boolean,
): { q: Int8Array; scales: Float32Array } {
  const scales = new Float32Array(byColumn ? cols : rows);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const k = byColumn ? c : r;
      scales[k] = Math.max(scales[k]!, Math.abs(m[r * cols + c]!));
    }
  for (let k = 0; k < scales.length; k++) scales[k] = scales[k]! / 127 || 1;
  const q = new Int8Array(m.length);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      q[r * cols + c] = Math.max(-127, Math.min(127, Math.round(m[r * cols + c]! / scales[byColumn ? c : r]!)));
  return { q, scales };
}

export function bertEncoderGraph(
  shape: BertShape,
  weight: WeightSource,
  variant: Variant = 'fp32',
  producer = 'selfrag-browser',
): Uint8Array {
  const { layers, hidden: H, heads, ff, vocab, positions, typeVocab } = shape;
  const head = H / heads;
  const g = new GraphBuilder();
  const vec = (name: string, n: number) => g.floats(weight(name, n, 1), [n]);
  const eps = { float: shape.layerNormEps };
  const ln = (x: string, prefix: string) =>
    g.op('LayerNormalization', [x, vec(`${prefix}.weight`, H), vec(`${prefix}.bias`, H)], { axis: -1, epsilon: eps });
  const i8zero = g.raw(INT8, new Uint8Array([0]), []);
  // x @ Wᵀ + b for a torch Linear stored [out, in].
  const linear = (x: string, prefix: string, inDim: number, outDim: number) => {
    const w = transpose(weight(`${prefix}.weight`, outDim, inDim), outDim, inDim);
    const b = vec(`${prefix}.bias`, outDim);
    if (variant === 'fp32') return g.op('Add', [g.op('MatMul', [x, g.floats(w, [inDim, outDim])]), b]);
    const { q, scales } = quantise(w, inDim, outDim, true);
    const wq = g.raw(INT8, new Uint8Array(q.buffer), [inDim, outDim]);
    const [xq, xScale, xZero] = g.opMulti('DynamicQuantizeLinear', [x], 3) as [string, string, string];
    const acc = g.op('Cast', [g.op('MatMulInteger', [xq, wq, xZero, i8zero])], { to: FLOAT });
    return g.op('Add', [g.op('Mul', [acc, g.op('Mul', [xScale, g.floats(scales, [outDim])])]), b]);
  };

  const ids = g.input('input_ids', INT64, ['batch', 'sequence']);
  const mask = g.input('attention_mask', INT64, ['batch', 'sequence']);
  const types = g.input('token_type_ids', INT64, ['batch', 'sequence']);
  const seqLen = g.op('Slice', [g.op('Shape', [ids]), g.int64s([1]), g.int64s([2])]);
  const posTable = g.floats(weight('embeddings.position_embeddings.weight', positions, H), [positions, H]);
  const pos = g.op('Slice', [posTable, g.int64s([0]), seqLen, g.int64s([0])]);
  const wordTable = weight('embeddings.word_embeddings.weight', vocab, H);
  let words: string;
  if (variant === 'fp32') words = g.op('Gather', [g.floats(wordTable, [vocab, H]), ids]);
  else {
    const { q, scales } = quantise(wordTable, vocab, H, false);
    const rows = g.op('Cast', [g.op('Gather', [g.raw(INT8, new Uint8Array(q.buffer), [vocab, H]), ids])], {
      to: FLOAT,
    });
    words = g.op('Mul', [rows, g.op('Gather', [g.floats(scales, [vocab, 1]), ids])]);
  }
  const typeEmb = g.op('Gather', [
    g.floats(weight('embeddings.token_type_embeddings.weight', typeVocab, H), [typeVocab, H]),
    types,
  ]);
  let x = ln(g.op('Add', [g.op('Add', [words, pos]), typeEmb]), 'embeddings.LayerNorm');
  const maskF = g.op('Cast', [mask], { to: FLOAT });
  const bias = g.op('Unsqueeze', [
    g.op('Mul', [g.op('Sub', [g.floats([1]), maskF]), g.floats([-1e4])]),
    g.int64s([1, 2]),
  ]);
  const split = g.int64s([0, 0, heads, head]);
  const merge = g.int64s([0, 0, H]);
  for (let l = 0; l < layers; l++) {
    const p = `encoder.layer.${l}`;
    const q = g.op('Transpose', [g.op('Reshape', [linear(x, `${p}.attention.self.query`, H, H), split])], {
      perm: [0, 2, 1, 3],
    });
    const k = g.op('Transpose', [g.op('Reshape', [linear(x, `${p}.attention.self.key`, H, H), split])], {
      perm: [0, 2, 3, 1],
    });
    const v = g.op('Transpose', [g.op('Reshape', [linear(x, `${p}.attention.self.value`, H, H), split])], {
      perm: [0, 2, 1, 3],
    });
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, k]), g.floats([1 / Math.sqrt(head)])]), bias]);
    const ctx = g.op('Reshape', [
      g.op('Transpose', [g.op('MatMul', [g.op('Softmax', [scores], { axis: -1 }), v])], { perm: [0, 2, 1, 3] }),
      merge,
    ]);
    x = ln(g.op('Add', [linear(ctx, `${p}.attention.output.dense`, H, H), x]), `${p}.attention.output.LayerNorm`);
    const up = linear(x, `${p}.intermediate.dense`, H, ff);
    const gelu = g.op('Mul', [
      g.op('Mul', [up, g.floats([0.5])]),
      g.op('Add', [g.floats([1]), g.op('Erf', [g.op('Mul', [up, g.floats([Math.SQRT1_2])])])]),
    ]);
    x = ln(g.op('Add', [linear(gelu, `${p}.output.dense`, ff, H), x]), `${p}.output.LayerNorm`);
  }
  g.op('Identity', [x], {}, 'last_hidden_state');
  g.output('last_hidden_state', FLOAT, ['batch', 'sequence', H]);
  return g.encode('bert-encoder', producer);
}
