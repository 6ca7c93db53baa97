// Reads the string metadata of a GGUF file's header (general.name, general.architecture, …),
// to check a downloaded model is the one its catalogue entry names before anything loads it.
import { closeSync, openSync, readSync } from 'node:fs';

const SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** Every string-valued key of the header (arrays skipped), reading at most the first `limit` bytes. */
export function ggufStrings(path: string, limit = 32 << 20): Record<string, string> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(limit);
    const n = readSync(fd, buf, 0, limit, 0);
    const view = buf.subarray(0, n);
    if (view.toString('latin1', 0, 4) !== 'GGUF') throw new Error(`${path} is not a GGUF file.`);
    let at = 8;
    const u32 = () => ((at += 4), view.readUInt32LE(at - 4));
    const u64 = () => ((at += 8), Number(view.readBigUInt64LE(at - 8)));
    const str = () => {
      const len = u64();
      at += len;
      return view.toString('utf8', at - len, at);
    };
    u64(); // tensors
    const count = u64();
    const out: Record<string, string> = {};
    for (let k = 0; k < count; k++) {
      const key = str();
      const type = u32();
      if (type === 8) out[key] = str();
      else if (type === 9) {
        const inner = u32();
        const items = u64();
        if (inner === 8) for (let i = 0; i < items; i++) str();
        else at += items * SIZES[inner]!;
      } else at += SIZES[type]!;
      if (at > view.length) break;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
