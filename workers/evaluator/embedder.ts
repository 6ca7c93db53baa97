// Sentence embeddings: token vectors pooled as the model's family was trained (the mean, or
// the [CLS] token for bge), then unit length, in batches.
// Used by the evaluator worker and by the Node indexer (`npm run index`).
import type { Embedder } from '../../src/core/ports';
import {
  DEFAULT_BATCH_SIZE,
  type EmbedderPooling,
  embedderPooling,
  embedderPrefixes,
  type ModelSpec,
} from '../../src/evaluator/config';
import { batches, loading, transformers, type RuntimeOptions } from './runtime';

export interface EmbedderConfig extends RuntimeOptions {
  model: ModelSpec;
}

export interface LoadedEmbedder extends Embedder {
  readonly model: string;
  embedQueries(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Vector length, known after the first embedding. */
  dimensions(): number | undefined;
  /** Loads the model now instead of on the first `embed`. */
  ready(): Promise<void>;
  dispose(): Promise<void>;
}

type Extractor = Awaited<ReturnType<Transformers['pipeline']>> &
  ((
    texts: string[],
    opts: { pooling: EmbedderPooling; normalize: boolean },
  ) => Promise<{ data: ArrayLike<number>; dims: number[] }>);
type Transformers = typeof import('@huggingface/transformers');

export function createEmbedder(config: EmbedderConfig): LoadedEmbedder {
  let extractor: Promise<Extractor> | undefined;
  let dims: number | undefined;
  const load = () =>
    (extractor ??= loading('embedder', config.model, config, async (options) => {
      const t = await transformers(config, config.model.id);
      return (await t.pipeline('feature-extraction', config.model.id, options)) as Extractor;
    }).catch((e: unknown) => {
      extractor = undefined; // a later call may retry, e.g. after the pack was downloaded
      throw e;
    }));

  // The model's query/passage prefixes, e.g. e5's "query: " (the pack folder name may hide the family: then none).
  const prefixes = embedderPrefixes(config.model.id);
  const prefixed = (prefix: string, texts: string[]) => (prefix ? texts.map((t) => prefix + t) : texts);
  const pooling = embedderPooling(config.model.id);

  async function embedRaw(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    if (texts.length === 0) return out;
    const run = await load();
    for (const batch of batches(texts, config.batchSize ?? DEFAULT_BATCH_SIZE)) {
      signal?.throwIfAborted();
      const tensor = await run(batch, { pooling, normalize: true });
      const d = tensor.dims[tensor.dims.length - 1] ?? 0;
      dims = d;
      // Copies, so each vector owns its buffer and can be transferred or stored on its own.
      for (let i = 0; i < batch.length; i++)
        out.push(Float32Array.from(Array.prototype.slice.call(tensor.data, i * d, (i + 1) * d) as number[]));
    }
    return out;
  }

  return {
    model: config.model.id,
    dimensions: () => dims,
    ready: async () => void (await load()),
    embed: (texts, signal) => embedRaw(prefixed(prefixes.passage, texts), signal),
    embedQueries: (texts, signal) => embedRaw(prefixed(prefixes.query, texts), signal),
    async dispose() {
      const e = await extractor?.catch(() => undefined);
      extractor = undefined;
      await (e as unknown as { dispose?: () => Promise<void> } | undefined)?.dispose?.();
    },
  };
}
