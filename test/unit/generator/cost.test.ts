import { describe, expect, it } from 'vitest';
import { measure } from '../../../bench/generator.bench';

// Token counts, not time: the same tree must cost at most half the prefill of
// the paper's plain algorithm (issue 4's target), with fewer engine calls.
describe('generator cost on the sample question set', () => {
  it('prefills at most half the tokens of the plain algorithm for the same tree', async () => {
    const [plain, ours, skipping] = await measure();
    expect(ours!.answers).toEqual(plain!.answers);
    expect(ours!.candidates).toBe(plain!.candidates);
    expect(ours!.cost.promptTokens).toBeLessThanOrEqual(0.5 * plain!.cost.promptTokens);
    expect(ours!.cost.calls).toBeLessThan(plain!.cost.calls / 3);
    expect(skipping!.cost.promptTokens).toBeLessThan(ours!.cost.promptTokens);
  });
});
