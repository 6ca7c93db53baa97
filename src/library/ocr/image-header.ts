// What an image says about itself in its first bytes: its format and declared
// size. Read before any decoder runs, so a 30000 × 30000 "decompression bomb"
// (a few kilobytes that would inflate to 3.6 GB of pixels) is refused unread.

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'bmp' | 'tiff' | 'heic' | 'avif';

export interface ImageHeader {
  format: ImageFormat;
  /** Declared pixel size; absent when the header is cut short or malformed. */
  width?: number;
  height?: number;
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const be16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const be32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const le16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const le24 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

/** The image format named by the file's magic bytes, with its declared size; null when the bytes are no known image. */
export function readImageHeader(b: Uint8Array): ImageHeader | null {
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG') {
    // The IHDR chunk comes first: length(4) 'IHDR'(4) width(4) height(4).
    return b.length >= 24 && ascii(b, 12, 4) === 'IHDR'
      ? { format: 'png', width: be32(b, 16), height: be32(b, 20) }
      : { format: 'png' };
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { format: 'jpeg', ...jpegSize(b) };
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP')
    return { format: 'webp', ...webpSize(b) };
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a'))
    return b.length >= 10 ? { format: 'gif', width: le16(b, 6), height: le16(b, 8) } : { format: 'gif' };
  if (b.length >= 2 && ascii(b, 0, 2) === 'BM') return { format: 'bmp' };
  if (
    b.length >= 4 &&
    ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) ||
      (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a))
  )
    return { format: 'tiff' };
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp') {
    const brand = ascii(b, 8, 4);
    if (brand === 'avif' || brand === 'avis') return { format: 'avif' };
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return { format: 'heic' };
  }
  return null;
}

/** JPEG: walk the marker segments to the first start-of-frame, which holds height then width. */
function jpegSize(b: Uint8Array): { width?: number; height?: number } {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return {};
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0-7, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    }
    const length = be16(b, at + 2);
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > b.length) return {};
      return { height: be16(b, at + 5), width: be16(b, at + 7) };
    }
    if (length < 2) return {};
    at += 2 + length;
  }
  return {};
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X, which declares the canvas size). */
function webpSize(b: Uint8Array): { width?: number; height?: number } {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X' && b.length >= 30) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ' && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  return {};
}
