// Work on another thread (a model call, a parse in the library worker) cannot be interrupted,
// so an abort rejects the caller at once and the work's eventual answer is dropped.
// Pure promise and AbortSignal logic, the same in a page, a worker and Node: it lives in the
// core so that the evaluator client and the library share one copy without depending on each other.

/**
 * Runs `work` unless `signal` is already aborted, and rejects as soon as it aborts. Results and
 * errors of `work` pass through unchanged.
 */
export function abortable<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work();
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work().then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * The signal's own reason when it is an AbortError (so "Stopped by the user" reaches the caller),
 * else a plain AbortError: callers tell an abort from a failure by that name (the evaluator's
 * WebGPU → WASM fallback must not retry an aborted call).
 */
function abortReason(signal: AbortSignal): unknown {
  const r: unknown = signal.reason;
  return r instanceof Error && r.name === 'AbortError'
    ? r
    : new DOMException('The operation was aborted.', 'AbortError');
}
