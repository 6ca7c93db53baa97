// Image headers built byte by byte, for the header reader's tests (no fixture binaries).
import { crc32 } from 'node:zlib';

const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function chunk(type: string, data: Uint8Array): number[] {
  const body = new Uint8Array([...ascii(type), ...data]);
  return [...be32(data.length), ...body, ...be32(crc32(body) >>> 0)];
}

/** A PNG declaring width × height (8-bit grey) whose IDAT holds `idat` (empty by default). */
export function png(width: number, height: number, idat: Uint8Array = new Uint8Array()): Uint8Array {
  const ihdr = new Uint8Array([...be32(width), ...be32(height), 8, 0, 0, 0, 0]);
  return new Uint8Array([
    0x89,
    ...ascii('PNG'),
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', ihdr),
    ...chunk('IDAT', idat),
    ...chunk('IEND', new Uint8Array()),
  ]);
}

/** A JPEG's start: SOI, optional extra segments, then a baseline frame header (SOF0) declaring the size. */
export function jpegHeader(width: number, height: number, before: Uint8Array = new Uint8Array()): Uint8Array {
  const sof = [
    0xff,
    0xc0,
    0,
    11,
    8,
    (height >> 8) & 0xff,
    height & 0xff,
    (width >> 8) & 0xff,
    width & 0xff,
    1,
    1,
    0x11,
    0,
  ];
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    ...ascii('JFIF'),
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    ...before,
    ...sof,
  ]);
}

const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

export function webpLossless(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return new Uint8Array([...ascii('RIFF'), ...le32(30), ...ascii('WEBPVP8L'), ...le32(5), 0x2f, ...le32(bits), 0, 0]);
}

export function webpExtended(width: number, height: number): Uint8Array {
  const le24 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
  return new Uint8Array([
    ...ascii('RIFF'),
    ...le32(30),
    ...ascii('WEBPVP8X'),
    ...le32(10),
    0,
    0,
    0,
    0,
    ...le24(width - 1),
    ...le24(height - 1),
  ]);
}
