// Sentence embeddings: mean pooling over tokens, then unit length, in batches.
// Used by the evaluator worker and by the Node indexer (`npm run index`).
import type { Embedder } from '../../src/core/ports';
import { DEFAULT_BATCH_SIZE, type ModelSpec } from '../../src/evaluator/config';
import { batches, loading, transformers, type RuntimeOptions } from './runtime';

export interface EmbedderConfig extends RuntimeOptions {
  model: ModelSpec;
}

export interface LoadedEmbedder extends Embedder {
  readonly model: string;
  /** Vector length, known after the first embedding. */
  dimensions(): number | undefined;
  /** Loads the model now instead of on the first `embed`. */
  ready(): Promise<void>;
  dispose(): Promise<void>;
}

type Extractor = Awaited<ReturnType<Transformers['pipeline']>> & {
  (texts: string[], opts: { pooling: 'mean'; normalize: boolean }): Promise<{ data: ArrayLike<number>; dims: number[] }>;
};
type Transformers = typeof import('@huggingface/transformers');

export function createEmbedder(config: EmbedderConfig): LoadedEmbedder {
  let extractor: Promise<Extractor> | undefined;
  let dims: number | undefined;
  const load = () =>
    (extractor ??= loading('embedder', config.model, config, async (options) => {
      const t = await transformers(config);
      return (await t.pipeline('feature-extraction', config.model.id, options)) as Extractor;
    }).catch((e: unknown) => {
      extractor = undefined; // a later call may retry, e.g. after the pack was downloaded
      throw e;
    }));

  return {
    model: config.model.id,
    dimensions: () => dims,
    ready: async () => void (await load()),
    async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      if (texts.length === 0) return out;
      const run = await load();
      for (const batch of batches(texts, config.batchSize ?? DEFAULT_BATCH_SIZE)) {
        signal?.throwIfAborted();
        const tensor = await run(batch, { pooling: 'mean', normalize: true });
        const d = tensor.dims[tensor.dims.length - 1] ?? 0;
        dims = d;
        // Copies, so each vector owns its buffer and can be transferred or stored on its own.
        for (let i = 0; i < batch.length; i++) out.push(Float32Array.from(Array.prototype.slice.call(tensor.data, i * d, (i + 1) * d) as number[]));
      }
      return out;
    },
    async dispose() {
      const e = await extractor?.catch(() => undefined);
      extractor = undefined;
      await (e as unknown as { dispose?: () => Promise<void> } | undefined)?.dispose?.();
    },
  };
}
