// An OPFS stand-in for the compact index's files in Node: files outlive the handles that wrote
// them (a "reload" opens them again), every write is counted, and the folder can be made
// unavailable (a browser without sync handles, or another tab holding them).
import type { FileFolder, FolderFile } from '../../src/library/compact-persistence';

class Bytes {
  buf = new Uint8Array(0);
  len = 0;
}

export class MemoryFolder implements FileFolder {
  readonly files = new Map<string, Bytes>();
  /** Bytes written per file name since the last reset. */
  written = new Map<string, number>();
  available = true;

  async open(name: string, create = true): Promise<FolderFile | null> {
    if (!this.available) return null;
    let f = this.files.get(name);
    if (!f && !create) return null;
    if (!f) this.files.set(name, (f = new Bytes()));
    const file = f;
    const count = (n: number) => this.written.set(name, (this.written.get(name) ?? 0) + n);
    return {
      size: () => file.len,
      read(at, out) {
        const n = Math.max(0, Math.min(out.length, file.len - at));
        out.set(file.buf.subarray(at, at + n));
        return n;
      },
      write(at, bytes) {
        const need = at + bytes.length;
        if (need > file.buf.length) {
          const next = new Uint8Array(Math.max(need, file.buf.length * 2));
          next.set(file.buf.subarray(0, file.len));
          file.buf = next;
        }
        file.buf.set(bytes, at);
        file.len = Math.max(file.len, need);
        count(bytes.length);
      },
      truncate(size) {
        if (size > file.buf.length) {
          const next = new Uint8Array(size);
          next.set(file.buf.subarray(0, file.len));
          file.buf = next;
        } else file.buf.fill(0, size, file.len);
        file.len = size;
      },
      close: () => undefined,
    };
  }

  async remove(name: string): Promise<void> {
    this.files.delete(name);
  }

  /** The stored bytes of one file (a view), for tests that damage it. */
  bytes(name: string): Uint8Array {
    const f = this.files.get(name);
    if (!f) throw new Error(`no file ${name}`);
    return f.buf.subarray(0, f.len);
  }

  truncate(name: string, size: number): void {
    const f = this.files.get(name)!;
    f.len = Math.min(f.len, size);
  }
}
