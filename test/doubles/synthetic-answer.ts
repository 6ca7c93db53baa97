// A seeded generator and retriever that produce a realistic, varied answer tree
// through the real decode loop: used by the UI controller tests and the UI bench
// (6 segments, 5 candidates per step). Not a product mode.
import type { GeneratedSegment, Generator, Retriever, ScoredPassage } from '../../src/core/ports';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 1_000_000) / 1_000_000;
  };
}

export function syntheticPassages(n: number): ScoredPassage[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `doc${i % 3}#${i}`,
    docId: `doc${i % 3}`,
    title: `Document ${i % 3}`,
    text: `Passage ${i} says the tide rises twice a day. The moon pulls the water. Fact number ${i}.`,
    index: i,
    score: 1 - i / (n + 1),
  }));
}

export function syntheticRetriever(): Retriever {
  return { retrieve: async (_q, k) => syntheticPassages(k) };
}

/** Every segment is written from its passage with random critique probabilities; the answer ends at `depth`. */
export function syntheticGenerator(opts: { seed?: number; depth?: number } = {}): Generator & { calls: number } {
  const next = rng(opts.seed ?? 7);
  const depth = opts.depth ?? 6;
  const g = {
    calls: 0,
    async decideRetrieval() {
      g.calls++;
      return { retrieval: 0.9, noRetrieval: 0.1 };
    },
    async generateSegments(reqs: Parameters<Generator['generateSegments']>[0]): Promise<GeneratedSegment[]> {
      g.calls++;
      return reqs.map((r) => {
        const text = `Segment ${r.previous.length + 1} from ${r.passage?.id ?? 'nothing'} (${Math.floor(next() * 1000)}).`;
        r.onText?.(text);
        return {
          text,
          rel: { relevant: next() + 0.01, irrelevant: next() + 0.01 },
          sup: { full: next() + 0.01, partial: next() + 0.01, none: next() + 0.01 },
          use: [next() + 0.01, next() + 0.01, next() + 0.01, next() + 0.01, next() + 0.01],
          logprob: -next() * 10,
          tokenCount: 12,
          done: r.previous.length + 1 >= depth,
        };
      });
    },
  };
  return g;
}
