// The three tiny model graphs. Each is a hashed bag of words: a word's bucket
// is fnv1a(word) mod D, computed at generation time and stored per vocabulary id;
// the one-hot row is rebuilt in the graph as relu(1 - |bucket - d|), which keeps
// the weights O(vocabulary) and uses only ops every ORT backend (incl. WebGPU) has.
import { FLOAT, GraphBuilder, INT64 } from './onnx-graph';
import { fnv1a, NEGATIONS, SPECIAL_TOKENS, STOPWORDS } from './vocabulary';

export const EMBEDDING_DIMS = 384;
const PAIR_BUCKETS = 512;

/** Vocabulary id → word, specials first. */
export type Vocab = string[];

function perToken(vocab: Vocab, f: (word: string) => number): number[] {
  return vocab.map((w) => ((SPECIAL_TOKENS as readonly string[]).includes(w) ? 0 : f(w)));
}

/** [batch, seq, D] one-hot rows of each token's bucket. */
function oneHot(g: GraphBuilder, ids: string, vocab: Vocab, dims: number): string {
  const buckets = g.floats(vocab.map((w) => fnv1a(w) % dims));
  const b = g.op('Unsqueeze', [g.op('Gather', [buckets, ids]), g.int64s([2])]);
  const range = g.floats(Array.from({ length: dims }, (_, i) => i));
  const dist = g.op('Abs', [g.op('Sub', [b, range])]);
  return g.op('Relu', [g.op('Sub', [g.floats([1]), dist])]);
}

/**
 * Embedder: last_hidden_state[token] = weight(word) · sign(word) · onehot(bucket(word)), masked.
 * Mean pooling + normalisation (done by transformers.js) then give a unit bag-of-words vector,
 * so texts sharing (content) words have a high cosine. Stop words weigh 0.2, specials 0.
 */
export function embedderGraph(vocab: Vocab): Uint8Array {
  const g = new GraphBuilder();
  const ids = g.input('input_ids', INT64, ['batch', 'sequence']);
  const mask = g.input('attention_mask', INT64, ['batch', 'sequence']);
  const weights = g.floats(
    perToken(vocab, (w) => ((fnv1a(`sign:${w}`) & 1) === 0 ? 1 : -1) * (STOPWORDS.has(w) ? 0.2 : 1)),
  );
  const w = g.op('Unsqueeze', [g.op('Gather', [weights, ids]), g.int64s([2])]);
  const m = g.op('Unsqueeze', [g.op('Cast', [mask], { to: FLOAT }), g.int64s([2])]);
  g.op('Mul', [g.op('Mul', [oneHot(g, ids, vocab, EMBEDDING_DIMS), w]), m], {}, 'last_hidden_state');
  g.output('last_hidden_state', FLOAT, ['batch', 'sequence', EMBEDDING_DIMS]);
  return g.encode('tiny-embedder');
}

interface PairParts {
  g: GraphBuilder;
  /** [batch, 1, 1] number of distinct content buckets of the first text found in the second. */
  overlap: string;
  /** [batch, 1, 1] distinct content buckets of the second text. */
  secondCount: string;
  /** [batch, 1, 1] 1 when exactly one of the two texts holds a negation word. */
  negationMismatch: string;
}

/** Inputs of a BERT pair classifier; token_type_ids tells the two texts apart. */
function pairParts(vocab: Vocab): PairParts {
  const g = new GraphBuilder();
  const ids = g.input('input_ids', INT64, ['batch', 'sequence']);
  const mask = g.op('Cast', [g.input('attention_mask', INT64, ['batch', 'sequence'])], { to: FLOAT });
  const types = g.op('Cast', [g.input('token_type_ids', INT64, ['batch', 'sequence'])], { to: FLOAT });
  const inFirst = g.op('Mul', [mask, g.op('Sub', [g.floats([1]), types])]);
  const inSecond = g.op('Mul', [mask, types]);
  const content = g.op('Gather', [
    g.floats(perToken(vocab, (w) => (STOPWORDS.has(w) || NEGATIONS.has(w) ? 0 : 1))),
    ids,
  ]);
  const negation = g.op('Unsqueeze', [
    g.op('Gather', [g.floats(perToken(vocab, (w) => (NEGATIONS.has(w) ? 1 : 0))), ids]),
    g.int64s([2]),
  ]);
  const hot = oneHot(g, ids, vocab, PAIR_BUCKETS);
  const row = (x: string) => g.op('Unsqueeze', [x, g.int64s([1])]); // [batch, 1, seq]
  const one = g.floats([1]);
  // Bucket presence (0/1) of each text's content words: [batch, 1, D].
  const first = g.op('Min', [g.op('MatMul', [row(g.op('Mul', [inFirst, content])), hot]), one]);
  const second = g.op('Min', [g.op('MatMul', [row(g.op('Mul', [inSecond, content])), hot]), one]);
  const ones = g.floats(new Array(PAIR_BUCKETS).fill(1), [PAIR_BUCKETS, 1]);
  const overlap = g.op('MatMul', [g.op('Mul', [first, second]), ones]);
  const secondCount = g.op('MatMul', [second, ones]);
  const negFirst = g.op('Min', [g.op('MatMul', [row(inFirst), negation]), one]);
  const negSecond = g.op('Min', [g.op('MatMul', [row(inSecond), negation]), one]);
  const negationMismatch = g.op('Abs', [g.op('Sub', [negFirst, negSecond])]);
  return { g, overlap, secondCount, negationMismatch };
}

/** Cross-encoder: logit = 2 · (query content words found in the passage) − 3. */
export function rerankerGraph(vocab: Vocab): Uint8Array {
  const { g, overlap } = pairParts(vocab);
  const logit = g.op('Sub', [g.op('Mul', [overlap, g.floats([2])]), g.floats([3])]);
  g.op('Reshape', [logit, g.int64s([-1, 1])], {}, 'logits');
  g.output('logits', FLOAT, ['batch', 1]);
  return g.encode('tiny-reranker');
}

export type NliLabel = 'entailment' | 'neutral' | 'contradiction';

/**
 * NLI (premise first, hypothesis second). f = fraction of the hypothesis' content words found in
 * the premise, m = 1 when a negation word appears on one side only. Logits:
 *   entailment = 6f − 3 − 8mf,  neutral = 0,  contradiction = 8mf − 3.
 * So: shared words → entailment; unrelated → neutral; shared words with a one-sided "not" → contradiction.
 * The logits are emitted in `labels` order, which is written to config.json `id2label`.
 */
export function nliGraph(vocab: Vocab, labels: NliLabel[]): Uint8Array {
  const { g, overlap, secondCount, negationMismatch } = pairParts(vocab);
  const f = g.op('Div', [overlap, g.op('Max', [secondCount, g.floats([1])])]);
  const mf = g.op('Mul', [negationMismatch, f]);
  const scaled = (x: string, k: number) => g.op('Mul', [x, g.floats([k])]);
  const logits: Record<NliLabel, string> = {
    entailment: g.op('Sub', [g.op('Sub', [scaled(f, 6), g.floats([3])]), scaled(mf, 8)]),
    neutral: scaled(f, 0),
    contradiction: g.op('Sub', [scaled(mf, 8), g.floats([3])]),
  };
  const all = g.op(
    'Concat',
    labels.map((l) => logits[l]),
    { axis: 2 },
  );
  g.op('Reshape', [all, g.int64s([-1, labels.length])], {}, 'logits');
  g.output('logits', FLOAT, ['batch', labels.length]);
  return g.encode('tiny-nli');
}
