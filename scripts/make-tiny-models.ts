// Generates tiny but meaningful BERT-type models that load through the real
// transformers.js (Node and browser) with remote models off:
//   test/fixtures/models/tiny/embedder      hashed bag-of-words sentence embedder
//   test/fixtures/models/tiny/reranker      word-overlap cross-encoder (one logit)
//   test/fixtures/models/tiny/nli           overlap + negation NLI, labels in the order of
//                                           Xenova/nli-deberta-v3-xsmall (contradiction, entailment, neutral)
//   test/fixtures/models/tiny/nli-reordered the same rule with another label order, to prove the
//                                           order is read from config.json
// The rules are documented in scripts/tiny-models/graphs.ts. Output is deterministic and
// rebuilt only when the vocabulary sources or the generator change (stamp.json).
//
//   npx tsx scripts/make-tiny-models.ts [--force]
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EMBEDDING_DIMS,
  embedderGraph,
  nliGraph,
  rerankerGraph,
  type NliLabel,
  type Vocab,
} from './tiny-models/graphs';
import { scanCorpus, SPECIAL_TOKENS } from './tiny-models/vocabulary';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '..');
export const TINY_DIR = join(ROOT, 'test/fixtures/models/tiny');
/** Model ids to use with source 'local' and localModelPath = test/fixtures/models (or <app>/models in the e2e build). */
export const TINY_MODEL_IDS = {
  embedder: 'tiny/embedder',
  reranker: 'tiny/reranker',
  nli: 'tiny/nli',
  nliReordered: 'tiny/nli-reordered',
} as const;

const GENERATOR_SOURCES = [
  fileURLToPath(import.meta.url),
  join(HERE, 'tiny-models/graphs.ts'),
  join(HERE, 'tiny-models/onnx-graph.ts'),
  join(HERE, 'tiny-models/vocabulary.ts'),
];

function tokenizerJson(vocab: Vocab) {
  const id = (t: string) => vocab.indexOf(t);
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((t) => ({
      id: id(t),
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
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: null,
    model: { type: 'WordLevel', vocab: Object.fromEntries(vocab.map((w, i) => [w, i])), unk_token: '[UNK]' },
  };
}

const TOKENIZER_CONFIG = {
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  model_max_length: 512,
  unk_token: '[UNK]',
  pad_token: '[PAD]',
  cls_token: '[CLS]',
  sep_token: '[SEP]',
};

function bertConfig(vocab: Vocab, architecture: string, labels?: string[]) {
  return {
    model_type: 'bert',
    architectures: [architecture],
    vocab_size: vocab.length,
    hidden_size: EMBEDDING_DIMS,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    // Only fp32 weights exist; this tells transformers.js not to look for model_quantized.onnx
    // (its browser default on WASM), so the pack loads without a dtype in the app's config.
    'transformers.js_config': { dtype: 'fp32' },
    ...(labels
      ? {
          num_labels: labels.length,
          id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])),
          label2id: Object.fromEntries(labels.map((l, i) => [l, i])),
        }
      : {}),
  };
}

function writeModel(dir: string, vocab: Vocab, config: object, onnx: Uint8Array): void {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(TOKENIZER_CONFIG, null, 2));
  writeFileSync(join(dir, 'onnx/model.onnx'), onnx);
}

const STAMP = join(TINY_DIR, 'stamp.json');

/** True when the models are missing or older than the generator or the vocabulary sources. */
export function tinyModelsStale(): boolean {
  if (!existsSync(STAMP)) return true;
  const { fingerprint } = JSON.parse(readFileSync(STAMP, 'utf8')) as { fingerprint?: string };
  return fingerprint !== scanCorpus(ROOT, GENERATOR_SOURCES).fingerprint;
}

export function makeTinyModels(): { words: number; files: number } {
  const scan = scanCorpus(ROOT, GENERATOR_SOURCES);
  const vocab: Vocab = [
    ...SPECIAL_TOKENS,
    ...scan.words.filter((w) => !(SPECIAL_TOKENS as readonly string[]).includes(w)),
  ];
  // Built beside the target and swapped in, so a test run reading the models meanwhile
  // (several engineers, several vitest processes) never sees a half-written folder.
  const tmp = `${TINY_DIR}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  writeModel(join(tmp, 'embedder'), vocab, bertConfig(vocab, 'BertModel'), embedderGraph(vocab));
  writeModel(
    join(tmp, 'reranker'),
    vocab,
    bertConfig(vocab, 'BertForSequenceClassification', ['LABEL_0']),
    rerankerGraph(vocab),
  );
  const nliLabels: NliLabel[] = ['contradiction', 'entailment', 'neutral'];
  writeModel(
    join(tmp, 'nli'),
    vocab,
    bertConfig(vocab, 'BertForSequenceClassification', nliLabels),
    nliGraph(vocab, nliLabels),
  );
  const reordered: NliLabel[] = ['entailment', 'neutral', 'contradiction'];
  writeModel(
    join(tmp, 'nli-reordered'),
    vocab,
    bertConfig(
      vocab,
      'BertForSequenceClassification',
      reordered.map((l) => l.toUpperCase()),
    ),
    nliGraph(vocab, reordered),
  );
  writeFileSync(
    join(tmp, 'stamp.json'),
    JSON.stringify({ fingerprint: scan.fingerprint, words: vocab.length, sources: scan.files }, null, 2),
  );
  const old = `${TINY_DIR}.old-${process.pid}`;
  if (existsSync(TINY_DIR)) renameSync(TINY_DIR, old);
  renameSync(tmp, TINY_DIR);
  rmSync(old, { recursive: true, force: true });
  return { words: vocab.length, files: scan.files.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--force') && !tinyModelsStale()) {
    console.log(`Tiny models are up to date in ${TINY_DIR}`);
  } else {
    const { words, files } = makeTinyModels();
    console.log(`Wrote tiny models to ${TINY_DIR} (vocabulary ${words} words from ${files} files)`);
  }
}
