// A passage in a term's postings is (gap to the previous passage << 1 | tf is 1) as a varint,
// then tf as a varint only when it is not 1: 1.53 bytes a posting on the bench's text (2–3 bits
// of tf inside the gap measured larger).

export function writeVarint(out: Uint8Array, at: number, v: number): number {
  while (v > 127) {
    out[at++] = (v & 127) | 128;
    v >>>= 7;
  }
  out[at++] = v;
  return at;
}

/**
 * Decodes postings from bytes[from, to) continuing after passage `doc`, into docs/tfs from
 * index `k`; returns the last passage and the new count.
 */
export function decodePostings(
  bytes: Uint8Array,
  from: number,
  to: number,
  doc: number,
  k: number,
  docs: Int32Array,
  tfs: Uint32Array,
): [number, number] {
  let p = from;
  while (p < to) {
    let v = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[p++]!;
      v |= (byte & 127) << shift;
      shift += 7;
    } while (byte & 128);
    let tf = 1;
    if ((v & 1) === 0) {
      tf = 0;
      shift = 0;
      do {
        byte = bytes[p++]!;
        tf |= (byte & 127) << shift;
        shift += 7;
      } while (byte & 128);
    }
    doc += v >>> 1;
    docs[k] = doc;
    tfs[k++] = tf;
  }
  return [doc, k];
}
