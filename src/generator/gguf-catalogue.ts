// GGUF models for the llama.cpp engine (wllama), on the CPU where WebGPU is
// missing. Kept free of the wllama import so the picker renders before it loads.
// Files over 2 GB must be split (llama-gguf-split) because wllama reads each
// file into one WebAssembly buffer; the 7B Self-RAG model is listed in parts.

export interface GgufModel {
  id: string;
  label: string;
  /** The files of the model in order (one, or the parts of a split model), absolute or relative to the page. */
  urls: readonly string[];
  /** Approximate download and memory, for the honest warning. */
  sizeMB: number;
  /** Self-RAG's own model: reflection tokens are single tokens of its vocabulary. */
  native: boolean;
  contextWindow: number;
  warning?: string;
}

const HF = 'https://huggingface.co/';

export const GGUF_CATALOGUE: readonly GgufModel[] = [
  {
    id: 'qwen2.5-0.5b-gguf',
    label: 'Qwen2.5 0.5B Instruct Q4_K_M (CPU default)',
    urls: [`${HF}Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf`],
    sizeMB: 491,
    native: false,
    contextWindow: 4096,
  },
  {
    id: 'qwen2.5-1.5b-gguf',
    label: 'Qwen2.5 1.5B Instruct Q4_K_M',
    urls: [`${HF}Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf`],
    sizeMB: 1120,
    native: false,
    contextWindow: 4096,
  },
  {
    id: 'llama-3.2-1b-gguf',
    label: 'Llama 3.2 1B Instruct Q4_K_M',
    urls: [`${HF}bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf`],
    sizeMB: 808,
    native: false,
    contextWindow: 4096,
  },
  {
    id: 'selfrag-llama2-7b-gguf',
    label: 'Self-RAG Llama 2 7B Q4_K_M (the paper’s model, native)',
    // Split into parts under 2 GB each with `llama-gguf-split --split-max-size 1900M`; serve the parts from a model pack.
    urls: [
      'models/gguf/selfrag_llama2_7b.Q4_K_M-00001-of-00003.gguf',
      'models/gguf/selfrag_llama2_7b.Q4_K_M-00002-of-00003.gguf',
      'models/gguf/selfrag_llama2_7b.Q4_K_M-00003-of-00003.gguf',
    ],
    sizeMB: 4080,
    native: true,
    contextWindow: 4096,
    warning:
      'About 4 GB to download and about 5 GB of memory while it runs; on the CPU it writes a few tokens per second at best.',
  },
];

export const DEFAULT_GGUF_ID = 'qwen2.5-0.5b-gguf';

export function findGguf(id: string): GgufModel | undefined {
  return GGUF_CATALOGUE.find((m) => m.id === id);
}

/** A GGUF model from the catalogue, or any .gguf URL (https or this site's own files). */
export type GgufChoice = { kind: 'gguf'; id: string } | { kind: 'gguf-url'; url: string; native: boolean };

export function resolveGguf(
  choice: GgufChoice,
  baseURI: string,
): { name: string; urls: string[]; native: boolean; warning?: string } {
  if (choice.kind === 'gguf') {
    const m = findGguf(choice.id);
    if (!m) throw new Error(`There is no GGUF model "${choice.id}" in the list.`);
    return {
      name: m.label,
      urls: m.urls.map((u) => new URL(u, baseURI).href),
      native: m.native,
      ...(m.warning ? { warning: m.warning } : {}),
    };
  }
  const url = new URL(choice.url, baseURI);
  const page = new URL(baseURI);
  if (url.protocol !== 'https:' && url.origin !== page.origin)
    throw new Error('A GGUF model must come from https or from this site.');
  if (!url.pathname.endsWith('.gguf')) throw new Error('A GGUF model address must end in .gguf.');
  return {
    name: decodeURIComponent(url.pathname.split('/').pop() ?? 'model.gguf'),
    urls: [url.href],
    native: choice.native,
  };
}
