// The comlink surface of workers/library.worker.ts. The worker implements this type and
// prepare-client.ts wraps it, so a change here is checked on both ends without src/
// importing from workers/.
import type { FileLike, PrepareOptions, PrepareOutcome } from '../ingest';
import type { OcrProgress } from '../ocr/port';

export interface LibraryWorkerApi {
  /** File.size of a disk-backed file can cost a blocking stat; in the worker it blocks no one. */
  sizes(files: FileLike[]): Promise<number[]>;
  /**
   * Reads, parses and chunks one file. No `pdf` loader or `ocr` port: a function cannot cross
   * threads, so the worker brings its own; `onOcr` (a Comlink proxy) hears of each page of a scan
   * before it is recognised.
   */
  prepare(
    file: FileLike,
    opts: Omit<PrepareOptions, 'pdf' | 'ocr'>,
    onOcr?: (p: OcrProgress) => void,
  ): Promise<PrepareOutcome>;
}
