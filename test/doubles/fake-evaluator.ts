// An evaluator without a worker or models, for the services built on it: its embedder loads
// or fails as the test says, and what it was asked is counted.
import type { Evaluator } from '../../src/evaluator/client';

export interface FakeEvaluator {
  evaluator: Evaluator;
  /** Whether the next embedder load fails (and with what). */
  embedderFails: Error | null;
  preloads: number;
  retries: number;
}

export function fakeEvaluator(source: 'hub' | 'local' = 'hub'): FakeEvaluator {
  const fake: FakeEvaluator = {
    evaluator: undefined as unknown as Evaluator,
    embedderFails: null,
    preloads: 0,
    retries: 0,
  };
  fake.evaluator = {
    source: { source },
    device: { device: 'wasm', reason: 'no WebGPU' },
    models: () => [],
    async preload() {
      fake.preloads++;
      if (fake.embedderFails) throw fake.embedderFails;
    },
    retry() {
      fake.retries++;
    },
  } as unknown as Evaluator;
  return fake;
}
