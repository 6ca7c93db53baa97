// Checks that run on raw bytes before any parser sees them.
import { RefusedFile } from './refusal';

/** Larger files are refused: a personal library of prose is far smaller, and the whole text is held in memory and IndexedDB. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export function checkSize(name: string, bytes: Uint8Array, limit = MAX_FILE_BYTES): void {
  if (bytes.length === 0) throw new RefusedFile(name, 'the file is empty');
  if (bytes.length > limit) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    throw new RefusedFile(name, `the file is too large (${mb(bytes.length)}; the limit is ${mb(limit)})`);
  }
}

/**
 * Text never holds NUL bytes, and holds few C0 control characters besides tab,
 * newline, carriage return and form feed. Only the first 64 KB is sampled.
 * UTF-16 text (which has NULs) is recognised by its byte order mark first.
 */
export function checkNotBinary(name: string, bytes: Uint8Array): void {
  if (utf16Bom(bytes)) return;
  const sample = bytes.subarray(0, 64 * 1024);
  let control = 0;
  for (const b of sample) {
    if (b === 0) throw new RefusedFile(name, 'the file looks binary (it contains NUL bytes), not text');
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12) control++;
  }
  if (control / sample.length > 0.05) throw new RefusedFile(name, 'the file looks binary (too many control characters), not text');
}

function utf16Bom(b: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

/** Strict decoding: a file that is not valid UTF-8 (or BOM-marked UTF-16) is refused, never silently mangled. */
export function decodeText(name: string, bytes: Uint8Array): string {
  const encoding = utf16Bom(bytes) ?? 'utf-8';
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new RefusedFile(name, `the file is not valid ${encoding.toUpperCase()} text (save it as UTF-8 and try again)`);
  }
}

/** Newlines normalised to \n so character offsets mean the same everywhere. */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
