// A store changed only through named actions. The reducer beside each resource's state says what
// every action does to it (pure: no worker, storage, network or timer); the resource's runner in
// wiring/ does the effects and dispatches what came of them. A reader follows a resource by its
// action names; a test drives the reducer alone. Built on `createStore`, so React reads it the
// same way and every dispatch notifies.
import { createStore } from './store';

export interface ActionStore<S, A extends { type: string }> {
  get(): S;
  subscribe(fn: () => void): () => void;
  dispatch(action: A): void;
}

export function createActionStore<S, A extends { type: string }>(
  reduce: (state: S, action: A) => S,
  initial: S,
): ActionStore<S, A> {
  const store = createStore(initial);
  return {
    get: store.get,
    subscribe: store.subscribe,
    dispatch: (action) => store.set((state) => reduce(state, action)),
  };
}

/** A selector that gives the same object while its input is the same (React compares snapshots by identity). */
export function memoSelect<I, O>(select: (input: I) => O): (input: I) => O {
  let last: { input: I; output: O } | null = null;
  return (input) => {
    if (last === null || last.input !== input) last = { input, output: select(input) };
    return last.output;
  };
}
