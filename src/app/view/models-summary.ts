// The folded "Models" section's heading on a phone: one line on the language model, so a
// visitor sees whether it is loading or failed without opening the engine and model pickers.
import type { StatusMap } from '../state/worker-status';

export function modelsSummary(status: StatusMap): string {
  const g = status.generator;
  const trouble = (['evaluator', 'library'] as const).some((n) => status[n].state === 'error');
  const generator =
    g.state === 'ready'
      ? `language model ready${g.device ? ` on ${g.device.toUpperCase()}` : ''}`
      : g.state === 'loading'
        ? 'language model loading'
        : g.state === 'error'
          ? 'language model failed to load'
          : g.state === 'unavailable'
            ? 'no language model'
            : 'language model loads with the first question';
  return trouble ? `${generator}; a problem to look at` : generator;
}
