// Re-ranking must keep up with a slider: it replays the beam over a stored tree. Baseline:
// scoring every candidate once (the least any re-rank must do); the ratio shows what the
// beam replay costs on top of that.
import { decode } from '../src/core/decode';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../src/core/defaults';
import { rerank } from '../src/core/rerank';
import { segmentScore } from '../src/core/scores';
import type { RankSettings } from '../src/core/types';
import { FakeRetriever, passage } from '../test/doubles/fake-retriever';
import { ScriptedGenerator } from '../test/doubles/scripted-generator';

function perCall(f: (i: number) => void, n: number): number {
  for (let i = 0; i < n / 10; i++) f(i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f(i);
  return ((performance.now() - t0) / n) * 1000;
}

export async function run(): Promise<void> {
  let seed = 1;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const generator = new ScriptedGenerator({
    segments: () => ({
      text: 'segment',
      rel: { relevant: rnd(), irrelevant: rnd() },
      sup: { full: rnd(), partial: rnd(), none: rnd() },
      use: [rnd(), rnd(), rnd(), rnd(), rnd()],
      logprob: -rnd(),
      tokenCount: 12,
    }),
  });
  const pool = [0, 1, 2, 3, 4].map((i) => ({ ...passage(`p${i}`, `text ${i}`), score: 1 }));
  const settings = { ...DEFAULT_DECODE_SETTINGS, mode: 'always' as const, passagesPerStep: 5, maxDepth: 6 };
  const { tree } = await decode(
    'q',
    { generator, retriever: new FakeRetriever(() => pool) },
    settings,
    DEFAULT_RANK_SETTINGS,
  );
  const ranks: RankSettings[] = Array.from({ length: 256 }, () => ({
    weights: { rel: rnd() * 2, sup: rnd() * 2, use: rnd() * 2, seq: rnd() },
    hardConstraints: rnd() > 0.5,
  }));
  const pick = (i: number) => ranks[i % ranks.length] as RankSettings;

  const baseline = perCall((i) => {
    const w = pick(i).weights;
    for (const c of tree.candidates) segmentScore(c, w);
  }, 20_000);
  const replay = perCall((i) => rerank(tree, pick(i)), 20_000);
  console.table([
    {
      what: `score ${tree.candidates.length} candidates once (baseline)`,
      'µs/call': baseline.toFixed(1),
      ratio: '1.00',
    },
    {
      what: 'rerank (6 segments × 5 candidates, B=2)',
      'µs/call': replay.toFixed(1),
      ratio: (replay / baseline).toFixed(2),
    },
  ]);
}
