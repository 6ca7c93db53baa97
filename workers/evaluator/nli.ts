// Support of a text by a passage through an NLI model: entailment → full,
// neutral → partial, contradiction → none. The label order differs between
// models, so it is read from the model's config (`id2label`), never assumed.
import type { SupProbs } from '../../src/core/ports';
import { DEFAULT_BATCH_SIZE, type ModelSpec } from '../../src/evaluator/config';
import type { SupportPair } from '../../src/evaluator/protocol';
import { batches, loading, rows, softmax, transformers, type RuntimeOptions } from './runtime';
import { loadClassifier, type Classifier } from './classifier';

export interface NliConfig extends RuntimeOptions {
  model: ModelSpec;
}

export interface SupportModel {
  readonly model: string;
  support(pairs: SupportPair[], signal?: AbortSignal): Promise<SupProbs[]>;
  ready(): Promise<void>;
  dispose(): Promise<void>;
}

export interface NliLabelIndex {
  entailment: number;
  neutral: number;
  contradiction: number;
}

/** Finds each NLI class in `id2label` by name (case-insensitive, prefixes like "entail" accepted). */
export function nliLabelIndex(model: string, id2label: Record<string, string> | undefined): NliLabelIndex {
  const found: Partial<NliLabelIndex> = {};
  for (const [id, label] of Object.entries(id2label ?? {})) {
    const name = label.toLowerCase();
    const i = Number(id);
    if (name.startsWith('entail')) found.entailment = i;
    else if (name.startsWith('neutral')) found.neutral = i;
    else if (name.startsWith('contradict')) found.contradiction = i;
  }
  if (found.entailment === undefined || found.neutral === undefined || found.contradiction === undefined) {
    const labels = JSON.stringify(id2label ?? null);
    throw new Error(
      `Model "${model}" is not an NLI model: its config id2label ${labels} lacks entailment, neutral and contradiction.`,
    );
  }
  return found as NliLabelIndex;
}

export function createSupportModel(config: NliConfig): SupportModel {
  let loaded: Promise<{ c: Classifier; labels: NliLabelIndex }> | undefined;
  const load = () =>
    (loaded ??= loading('nli', config.model, config, async (options) => {
      const c = await loadClassifier(await transformers(config, config.model.id), config.model.id, options);
      return { c, labels: nliLabelIndex(config.model.id, c.id2label) };
    }).catch((e: unknown) => {
      loaded = undefined;
      throw e;
    }));

  return {
    model: config.model.id,
    ready: async () => void (await load()),
    async support(pairs, signal) {
      const out: SupProbs[] = [];
      if (pairs.length === 0) return out;
      const { c, labels } = await load();
      for (const batch of batches(pairs, config.batchSize ?? DEFAULT_BATCH_SIZE)) {
        signal?.throwIfAborted();
        const logits = await c.logits(
          batch.map((p) => p.premise),
          batch.map((p) => p.hypothesis),
        );
        for (const row of rows(logits.data, batch.length)) {
          const p = softmax(row);
          out.push({ full: p[labels.entailment]!, partial: p[labels.neutral]!, none: p[labels.contradiction]! });
        }
      }
      return out;
    },
    async dispose() {
      const l = await loaded?.catch(() => undefined);
      loaded = undefined;
      await l?.c.dispose();
    },
  };
}
