// What every answer bench opens before it asks anything: the real Qwen GGUF on a native llama-server
// (the app's WllamaGenerator sending it llama.cpp's requests), the app's library over the labelled
// set's documents with the real MiniLM, and the critic (the site's own by default, re-ranking
// retrieval as the page's default does; or MiniLM's cosine). Null, with the reason printed, when
// the model or the server binary is missing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HOW_TO_FETCH, QWEN_05B, QWEN_15B, realModelsDir } from '../../scripts/real-models/catalogue';
import { DEFAULT_RETRIEVAL } from '../../src/core/hybrid';
import type { Retriever } from '../../src/core/ports';
import { WllamaGenerator } from '../../src/generator/wllama/decoder';
import { startNativeServer } from './llama-server-engine';
import { minilmCritic } from './minilm-critic';
import { BENCH_RETRIEVAL, type NodeLibrary, setLibrary } from './node-library';
import { shippedCritic } from './shipped-critic';
import type { Ports } from './rows';

export const MODELS = { qwen05: QWEN_05B, qwen15: QWEN_15B } as const;
export type ModelKey = keyof typeof MODELS;

export interface AnswerSession extends Ports {
  key: ModelKey;
  modelName: string;
  threads: number;
  criticName: string;
  generator: WllamaGenerator;
  retriever: Retriever;
  lib: NodeLibrary;
  close(): Promise<void>;
}

export async function openAnswerSession(): Promise<AnswerSession | null> {
  const key = (process.env.ANSWERS_MODEL ?? 'qwen05') as ModelKey;
  const model = MODELS[key];
  if (!model) throw new Error(`ANSWERS_MODEL must be one of ${Object.keys(MODELS).join(', ')}.`);
  const path = join(realModelsDir(), model.file);
  if (!existsSync(path)) {
    console.log(`SKIPPED: ${model.name} is not in ${realModelsDir()}. ${HOW_TO_FETCH} (Qwen 1.5B: add --all.)`);
    return null;
  }
  const binary = process.env.LLAMA_SERVER;
  if (!binary || !existsSync(binary)) {
    console.log(
      'SKIPPED: set LLAMA_SERVER to a llama-server binary (bench/answers/README.md says how to build the pinned one).',
    );
    return null;
  }
  const threads = Number(process.env.ANSWERS_THREADS ?? 2);
  const which = process.env.ANSWERS_CRITIC ?? 'shipped';
  const shipped = which === 'shipped' ? shippedCritic() : undefined;
  // With the shipped critic, retrieval re-ranks its first stage with it, as the page's default does.
  const lib = await setLibrary(console.log, shipped ? { rerank: shipped.score } : {});
  const server = await startNativeServer({ model: path, threads, binary, log: console.log });
  const critic = shipped ?? minilmCritic((a, t) => lib.cosines(a, t));
  return {
    key,
    modelName: model.name,
    threads,
    criticName: shipped ? "the site's own (public/critic/)" : 'MiniLM cosine',
    generator: new WllamaGenerator(server.engine, { nProbs: 20 }),
    retriever: lib.retriever(shipped ? DEFAULT_RETRIEVAL : BENCH_RETRIEVAL),
    critic,
    score: critic.score,
    lib,
    async close() {
      await server.close();
      await lib.close();
      await shipped?.dispose();
    },
  };
}
