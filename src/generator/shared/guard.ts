// How every engine call is made: counted (a call that fails still did work), stopped when
// its signal aborts, and its failure turned into the engine's typed error.
import { abortError, type GeneratorError } from '../errors';
import type { Meter } from './decoder';
import { throwIfAborted } from './self-rag';

export async function guarded<T>(
  meter: Meter,
  signal: AbortSignal | undefined,
  stop: () => void,
  toError: (err: unknown) => GeneratorError,
  work: () => Promise<T>,
): Promise<T> {
  throwIfAborted(signal);
  meter.call();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    return await work();
  } catch (err) {
    if (signal?.aborted) throw abortError();
    throw toError(err);
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
