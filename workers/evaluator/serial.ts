// One-at-a-time queue for async work. Pure (no ORT import), so it is unit-tested in Node.

export type Serial = <T>(work: () => Promise<T>) => Promise<T>;

/** Each call starts after every earlier call has settled; a failure does not block the queue. */
export function serialQueue(): Serial {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}
