// Checks that run on raw bytes before any parser sees them.
import { RefusedFile } from './refusal';

/** Larger files are refused: a personal library of prose is far smaller, and the whole text is held in memory and IndexedDB. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export function checkSize(name: string, bytes: Uint8Array, limit = MAX_FILE_BYTES): void {
  checkDeclaredSize(name, bytes.length, limit);
}

/** The same check on a size known before reading (File.size), so a huge file is refused without being read. */
export function checkDeclaredSize(name: string, size: number, limit = MAX_FILE_BYTES): void {
  if (size === 0) throw new RefusedFile(name, 'the file is empty');
  if (size > limit) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    throw new RefusedFile(
      name,
      `the file is too large (${mb(size)}; the limit is ${mb(limit)}): split it into smaller files`,
    );
  }
}

/** A zip archive (PK\x03\x04): DOCX and EPUB are zips; any other zip is refused with advice. */
export function isZip(b: Uint8Array): boolean {
  return b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
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
    if (b === 0)
      throw new RefusedFile(
        name,
        'the file looks binary (it contains NUL bytes), not text; if it is text, remove the NUL bytes and save it again',
      );
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12) control++;
  }
  if (control / sample.length > 0.05)
    throw new RefusedFile(name, 'the file looks binary (too many control characters), not text');
}

function utf16Bom(b: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

/**
 * Strict decoding: UTF-8, or UTF-16 marked by its byte order mark. A file with
 * no valid UTF-8 multi-byte sequence at all is an older single-byte encoding
 * (Latin-1 / Windows-1252 is by far the commonest): it is read as that, with a
 * note. A file that mixes valid UTF-8 with broken bytes is refused, never mangled.
 */
export function decodeText(name: string, bytes: Uint8Array): { text: string; note?: string } {
  const encoding = utf16Bom(bytes) ?? 'utf-8';
  try {
    return { text: new TextDecoder(encoding, { fatal: true }).decode(bytes) };
  } catch {
    if (encoding === 'utf-8' && !hasUtf8Sequence(bytes)) {
      return {
        text: new TextDecoder('windows-1252').decode(bytes),
        note: 'read as Latin-1 (Windows-1252) because it is not UTF-8; check accented letters',
      };
    }
    throw new RefusedFile(
      name,
      `the file is not valid ${encoding.toUpperCase()} text (save it as UTF-8 and try again)`,
    );
  }
}

/** True when the bytes hold at least one well-formed UTF-8 multi-byte sequence. */
function hasUtf8Sequence(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    const n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? (c <= 0xef ? 2 : 0) : c >= 0xc2 && c <= 0xdf ? 1 : 0;
    if (n === 0) continue;
    let ok = i + n < b.length;
    for (let k = 1; ok && k <= n; k++) ok = (b[i + k]! & 0xc0) === 0x80;
    if (ok) return true;
  }
  return false;
}

/** Newlines normalised to \n so character offsets mean the same everywhere. */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
