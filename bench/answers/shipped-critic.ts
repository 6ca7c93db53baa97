// The critic the site ships (public/critic/, trained by training/critic/), loaded in Node by the
// evaluator worker's own adapters (workers/evaluator/reranker.ts, nli.ts) through onnxruntime-node,
// the int8 files the page runs. Used by the critique and answer benches and the real tier, so a
// figure about the default critic is a figure about these very files.
import { join } from 'node:path';
import type { Critic, Passage, RelProbs, SupProbs } from '../../src/core/ports';
import { SHIPPED_MODELS_DIR, SHIPPED_NLI, SHIPPED_RERANKER } from '../../src/evaluator/config';
import { ROOT } from '../../scripts/make-tiny-models';
import { createSupportModel } from '../../workers/evaluator/nli';
import { createReranker } from '../../workers/evaluator/reranker';

export const SHIPPED_CRITIC_DIR = join(ROOT, 'public', SHIPPED_MODELS_DIR);

export interface ShippedCritic extends Critic {
  /** CRAG's retrieval evaluator and the re-rank stage: the relevance probability of each text. */
  score(question: string, texts: string[]): Promise<number[]>;
  dispose(): Promise<void>;
}

export function shippedCritic(threads = 2): ShippedCritic {
  const runtime = { source: 'local' as const, shippedModelPath: SHIPPED_CRITIC_DIR, threads };
  const reranker = createReranker({ ...runtime, model: { id: SHIPPED_RERANKER, dtype: 'q8' } });
  const nli = createSupportModel({ ...runtime, model: { id: SHIPPED_NLI, dtype: 'q8' } });
  return {
    // As the page's evaluator client asks: the passage's text alone.
    async relevance(question: string, passages: Passage[]): Promise<RelProbs[]> {
      const p = await reranker.score(
        question,
        passages.map((x) => x.text),
      );
      return p.map((relevant) => ({ relevant, irrelevant: 1 - relevant }));
    },
    support(pairs): Promise<SupProbs[]> {
      return nli.support(pairs.map((x) => ({ premise: x.passage.text, hypothesis: x.text })));
    },
    score: (question, texts) => reranker.score(question, texts),
    async dispose() {
      await Promise.all([reranker.dispose(), nli.dispose()]);
    },
  };
}
