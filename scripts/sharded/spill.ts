// Temporary files the writer spills to while it streams the corpus: buffered appends, and the
// word buckets whose buffers share one budget.
import { appendFileSync, closeSync, openSync, writeFileSync, writeSync } from 'node:fs';

/** Appends through a buffer: millions of small records would otherwise be millions of writes. */
export class Appender {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  written = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  write(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buf.length) this.flush();
    if (bytes.length > this.buf.length) writeSync(this.fd, bytes);
    else {
      this.buf.set(bytes, this.used);
      this.used += bytes.length;
    }
    this.written += bytes.length;
  }
  flush(): void {
    if (this.used) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * A temporary word bucket: buffered in memory, opened only to append a full buffer. With
 * thousands of buckets (tens of millions of passages) neither their buffers nor their file
 * descriptors add up: the buffers share one budget (WORD_BUFFER_BYTES).
 */
export class BucketFile {
  private readonly buf: Buffer;
  private used = 0;
  written = 0;
  constructor(
    readonly path: string,
    bytes: number,
  ) {
    this.buf = Buffer.allocUnsafe(bytes);
    writeFileSync(path, '');
  }
  write(line: string): void {
    const need = Buffer.byteLength(line);
    if (this.used + need > this.buf.length) this.flush();
    if (need > this.buf.length) appendFileSync(this.path, line);
    else this.used += this.buf.write(line, this.used);
    this.written += need;
  }
  flush(): void {
    if (this.used) appendFileSync(this.path, this.buf.subarray(0, this.used));
    this.used = 0;
  }
}
