// A ByteFile on a Node file descriptor: what an OPFS sync access handle is to the index worker.
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import type { FileFolder, FolderFile } from '../../src/library/compact-persistence';
import { join } from 'node:path';

export class NodeFile implements FolderFile {
  private readonly fd: number;
  constructor(path: string) {
    this.fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
  }
  size(): number {
    return fstatSync(this.fd).size;
  }
  read(at: number, out: Uint8Array): number {
    let done = 0;
    // readSync reads at most 2 GB at once.
    while (done < out.length) {
      const n = readSync(this.fd, out, done, Math.min(out.length - done, 1 << 30), at + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  }
  write(at: number, bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length)
      done += writeSync(this.fd, bytes, done, Math.min(bytes.length - done, 1 << 30), at + done);
  }
  truncate(size: number): void {
    ftruncateSync(this.fd, size);
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** A folder of NodeFiles (the bench's OPFS). */
export function nodeFolder(dir: string): FileFolder {
  return {
    async open(name, create = true) {
      const path = join(dir, name);
      return create || existsSync(path) ? new NodeFile(path) : null;
    },
    async remove(name) {
      unlinkSync(join(dir, name));
    },
  };
}
