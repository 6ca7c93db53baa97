import { describe, expect, it } from 'vitest';
import type { StatusMap, WorkerStatus } from '../../../../src/app/state/worker-status';
import { modelsUnreachable, withoutDownloadAdvice } from '../../../../src/app/view/models-reach';

const idle: WorkerStatus = { state: 'idle', models: [] };
const map = (evaluator: WorkerStatus): StatusMap => ({ evaluator, generator: idle, library: idle });

describe('whether the models cannot be downloaded from this network', () => {
  it('holds when a download failed because its host cannot be reached', () => {
    const error =
      'Could not load the embedding model "Xenova/all-MiniLM-L6-v2" from the Hugging Face hub: Failed to fetch; the Hugging Face hub cannot be reached from this network, or the browser is offline';
    expect(modelsUnreachable(map({ state: 'error', models: [], error }))).toBe(true);
  });
  it('does not hold for a model that failed otherwise, nor while nothing failed', () => {
    expect(modelsUnreachable(map({ state: 'error', models: [], error: 'Out of memory' }))).toBe(false);
    expect(modelsUnreachable(map(idle))).toBe(false);
  });
});

describe('advice where nothing can be downloaded', () => {
  it('drops the smaller model and keeps the rest', () => {
    expect(
      withoutDownloadAdvice(
        'The model files could not be downloaded. Check the connection and try again, or choose a smaller model.',
      ),
    ).toBe('The model files could not be downloaded. Check the connection and try again.');
    expect(withoutDownloadAdvice('Choose a smaller model (e.g. Qwen2.5 0.5B), close other tabs.')).toBe(
      'Close other tabs.',
    );
  });
});
