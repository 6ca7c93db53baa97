// A sequence-pair classifier (tokenizer + model called directly) shared by the
// cross-encoder and the NLI adapter.
import type { LoadOptions, Transformers } from './runtime';

export interface Classifier {
  /** Raw logits, shape [pairs, labels]. */
  logits(first: string[], second: string[]): Promise<{ data: ArrayLike<number>; dims: number[] }>;
  /** `config.json` `id2label`, when the model has one. */
  id2label: Record<string, string> | undefined;
  dispose(): Promise<void>;
}

export async function loadClassifier(t: Transformers, id: string, options: LoadOptions): Promise<Classifier> {
  const tokenizer = await t.AutoTokenizer.from_pretrained(id, { progress_callback: options.progress_callback });
  const model = await t.AutoModelForSequenceClassification.from_pretrained(
    id,
    options as Parameters<typeof t.AutoModelForSequenceClassification.from_pretrained>[1],
  );
  const config = model.config as unknown as { id2label?: Record<string, string> };
  return {
    id2label: config.id2label,
    async logits(first, second) {
      const inputs = tokenizer(first, { text_pair: second, padding: true, truncation: true });
      const out = (await model(inputs)) as { logits: { data: ArrayLike<number>; dims: number[] } };
      return out.logits;
    },
    dispose: async () => {
      await model.dispose();
    },
  };
}
