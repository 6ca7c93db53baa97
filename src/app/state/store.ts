// The one store primitive every page store is built on: a value, a way to replace it, and
// listeners told after each change. React reads it with useSyncExternalStore, so a new value
// must be a new object (never mutate what get() returned). Every set notifies, even with an
// equal value: the stores built on it always did, and callers rely on a repaint per set.

export type Updater<T> = T | ((prev: T) => T);

export interface Store<T> {
  get(): T;
  /** The next value, or a function of the current one. T itself must not be a function. */
  set(next: Updater<T>): void;
  /** Called after every set; returns the unsubscribe. */
  subscribe(fn: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = typeof next === 'function' ? (next as (prev: T) => T)(value) : next;
      for (const fn of listeners) fn();
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
      };
    },
  };
}
