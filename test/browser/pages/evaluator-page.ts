// E2E-only page (built with --mode e2e): drives the real evaluator client and worker
// against the tiny model pack the harness copies into <build>/models/.
import { createEvaluator, type Evaluator } from '../../../src/evaluator/client';
import {
  resolveEvaluatorConfig,
  type DevicePreference,
  type EvaluatorProgress,
  type ModelDeviceReport,
  type ModelSource,
  type SourceReport,
} from '../../../src/evaluator/config';
import { summariseDevices } from '../../../src/evaluator/device-summary';

export interface EvaluatorRun {
  device: { device: string; reason: string };
  source: SourceReport;
  /** For each query, passage indices sorted by embedding similarity (best first). */
  embeddingRankings: number[][];
  /** For each query, passage indices sorted by cross-encoder relevance. */
  relevanceRankings: number[][];
  relevance: number[][];
  support: { full: number; partial: number; none: number }[];
  progress: EvaluatorProgress[];
  /** Each model's device as the evaluator last reported it. */
  models: ModelDeviceReport[];
}

// This page sits at test/browser/pages/ of the build; the app (and its models/) is three levels up.
const APP_BASE = new URL('../../../', document.baseURI).href;

const order = (scores: number[]) =>
  scores
    .map((s, i) => [s, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map(([, i]) => i);

async function run(
  device: DevicePreference,
  passages: string[],
  queries: string[],
  supportPairs: { premise: string; hypothesis: string }[],
  models: { embedder?: string; reranker?: string; nli?: string; source?: ModelSource } = {},
): Promise<EvaluatorRun> {
  const progress: EvaluatorProgress[] = [];
  const config = resolveEvaluatorConfig(
    {
      source: models.source ?? 'local',
      device,
      // No dtype: the pack's config.json declares fp32, as the app's `?modelPack=` path relies on.
      embedder: models.embedder ?? 'tiny/embedder',
      reranker: models.reranker ?? 'tiny/reranker',
      nli: models.nli ?? 'tiny/nli',
    },
    APP_BASE,
  );
  const evaluator = await createEvaluator(config, (p) => progress.push(p));
  try {
    await evaluator.preload();
    const p = await evaluator.embedder.embed(passages);
    const q = await evaluator.embedder.embed(queries);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    const relevance = await Promise.all(queries.map((query) => evaluator.relevanceScores(query, passages)));
    const support = await evaluator.critic.support(
      supportPairs.map((s, i) => ({
        passage: { id: `${i}`, docId: 'd', title: 't', text: s.premise, index: i },
        text: s.hypothesis,
      })),
    );
    return {
      device: evaluator.device,
      source: evaluator.source,
      embeddingRankings: q.map((qv) => order(p.map((pv) => dot(qv, pv)))),
      relevanceRankings: relevance.map(order),
      relevance,
      support,
      progress,
      models: evaluator.models(),
    };
  } finally {
    evaluator.dispose();
  }
}

/** The app's access pattern: nothing preloaded, then relevance and support requested at once (decode.ts). */
async function runConcurrent(
  device: DevicePreference,
  passages: string[],
  query: string,
  supportPairs: { premise: string; hypothesis: string }[],
) {
  const config = resolveEvaluatorConfig(
    { source: 'local', device, embedder: 'tiny/embedder', reranker: 'tiny/reranker', nli: 'tiny/nli' },
    APP_BASE,
  );
  const evaluator = await createEvaluator(config);
  try {
    await evaluator.embedder.embed(passages);
    const pairs = supportPairs.map((s, i) => ({
      passage: { id: `${i}`, docId: 'd', title: 't', text: s.premise, index: i },
      text: s.hypothesis,
    }));
    const [relevance, support] = await Promise.all([
      evaluator.relevanceScores(query, passages),
      evaluator.critic.support(pairs),
    ]);
    return { device: evaluator.device, relevance, support };
  } finally {
    evaluator.dispose();
  }
}

/** One evaluator kept open between calls, so a test can change the worker's environment in between. */
function stepwise() {
  let evaluator: Evaluator | undefined;
  const events: ModelDeviceReport[] = [];
  const need = () => {
    if (!evaluator) throw new Error('open() first');
    return evaluator;
  };
  return {
    async open(device: DevicePreference) {
      const config = resolveEvaluatorConfig(
        { source: 'local', device, embedder: 'tiny/embedder', reranker: 'tiny/reranker', nli: 'tiny/nli' },
        APP_BASE,
      );
      evaluator = await createEvaluator(config, undefined, (r) => events.push(r));
      return evaluator.device;
    },
    embed: async (texts: string[]) => (await need().embedder.embed(texts)).map((v) => Array.from(v)),
    relevance: (query: string, texts: string[]) => need().relevanceScores(query, texts),
    support: (pairs: { premise: string; hypothesis: string }[]) =>
      need().critic.support(
        pairs.map((s, i) => ({
          passage: { id: `${i}`, docId: 'd', title: 't', text: s.premise, index: i },
          text: s.hypothesis,
        })),
      ),
    devices: () => ({ models: need().models(), events, summary: summariseDevices(need().device, need().models()) }),
    close() {
      evaluator?.dispose();
      evaluator = undefined;
    },
  };
}

/**
 * Embeds `texts` with one embedder of the pack on one device and weight variant, through the app's
 * evaluator client and worker: what the real-model tier compares against the reference implementation.
 */
async function embedWith(device: DevicePreference, embedder: string, dtype: 'fp32' | 'q8', texts: string[]) {
  const config = resolveEvaluatorConfig(
    { source: 'local', device, embedder, reranker: 'tiny/reranker', nli: 'tiny/nli' },
    APP_BASE,
  );
  config.embedder.dtype = dtype;
  const evaluator = await createEvaluator(config);
  try {
    const vectors = (await evaluator.embedder.embed(texts)).map((v) => Array.from(v));
    return { device: evaluator.device.device, vectors };
  } finally {
    evaluator.dispose();
  }
}

declare global {
  interface Window {
    embedWith: typeof embedWith;
    runEvaluator: typeof run;
    runConcurrent: typeof runConcurrent;
    evaluatorSteps: ReturnType<typeof stepwise>;
  }
}
window.runEvaluator = run;
window.embedWith = embedWith;
window.runConcurrent = runConcurrent;
window.evaluatorSteps = stepwise();
document.getElementById('status')!.textContent = 'ready';
