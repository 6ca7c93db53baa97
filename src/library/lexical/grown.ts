/** `a`, or a copy with room for at least `need` elements (doubling, so appends stay amortised O(1)). */
export function grown<T extends Uint8Array | Uint32Array | Int32Array | Float64Array | Uint16Array>(
  a: T,
  need: number,
): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2, 16));
  next.set(a);
  return next;
}
