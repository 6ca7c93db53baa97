// The one way a service starts something on first use: the first call starts it, later calls
// share the same promise. `reset` forgets it (a retry, a new model), so the next call starts
// afresh; `inFlight` forgets it by itself once it settles (one load at a time, not a cache).

export interface Lazy<T> {
  (): Promise<T>;
  /** Forgets the started value: the next call starts again. */
  reset(): void;
  /** Whether a start is held (in flight or done). */
  started(): boolean;
}

export function lazy<T>(start: () => Promise<T>, opts: { inFlight?: boolean } = {}): Lazy<T> {
  let held: Promise<T> | null = null;
  const get = (() => {
    if (held) return held;
    const p = start();
    held = p;
    if (opts.inFlight) {
      const forget = () => {
        if (held === p) held = null;
      };
      p.then(forget, forget);
    }
    return p;
  }) as Lazy<T>;
  get.reset = () => {
    held = null;
  };
  get.started = () => held !== null;
  return get;
}
