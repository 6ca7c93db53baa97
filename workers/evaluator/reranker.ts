// Cross-encoder relevance: the model is called directly and its single logit
// read through a sigmoid (the text-classification pipeline softmaxes a
// single-logit head to 1.0).
import { DEFAULT_BATCH_SIZE, type ModelSpec } from '../../src/evaluator/config';
import { batches, loading, rows, sigmoid, softmax, transformers, type RuntimeOptions } from './runtime';
import { loadClassifier, type Classifier } from './classifier';

export interface RerankerConfig extends RuntimeOptions {
  model: ModelSpec;
}

export interface Reranker {
  readonly model: string;
  /** Probability that each text is relevant to the query, in input order. */
  score(query: string, texts: string[], signal?: AbortSignal): Promise<number[]>;
  ready(): Promise<void>;
  dispose(): Promise<void>;
}

export function createReranker(config: RerankerConfig): Reranker {
  let classifier: Promise<Classifier> | undefined;
  const load = () =>
    (classifier ??= loading('reranker', config.model, config, async (options) =>
      loadClassifier(await transformers(config, config.model.id), config.model.id, options),
    ).catch((e: unknown) => {
      classifier = undefined;
      throw e;
    }));

  return {
    model: config.model.id,
    ready: async () => void (await load()),
    async score(query, texts, signal) {
      const out: number[] = [];
      if (texts.length === 0) return out;
      const c = await load();
      for (const batch of batches(texts, config.batchSize ?? DEFAULT_BATCH_SIZE)) {
        signal?.throwIfAborted();
        const logits = await c.logits(
          batch.map(() => query),
          batch,
        );
        // A two-label head (irrelevant, relevant) is read as a softmax instead.
        for (const row of rows(logits.data, batch.length))
          out.push(row.length === 1 ? sigmoid(row[0]!) : softmax(row)[1]!);
      }
      return out;
    },
    async dispose() {
      const c = await classifier?.catch(() => undefined);
      classifier = undefined;
      await c?.dispose();
    },
  };
}
