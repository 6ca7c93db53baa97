// Image sizes are read from the header bytes, so an image declaring a giant size
// is refused before anything decodes it, and formats browsers cannot decode are named.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readImageHeader } from '../../../../src/library/ocr/image-header';
import { checkImageHeader, MAX_IMAGE_PIXELS } from '../../../../src/library/ocr/limits';
import { RefusedFile } from '../../../../src/library/parse';
import { jpegHeader, png, webpLossless, webpExtended } from '../../../doubles/image-bytes';

describe('image header', () => {
  it('reads PNG, JPEG and WebP sizes from their headers', () => {
    expect(readImageHeader(png(640, 480))).toEqual({ format: 'png', width: 640, height: 480 });
    expect(readImageHeader(jpegHeader(1200, 900))).toEqual({ format: 'jpeg', width: 1200, height: 900 });
    expect(readImageHeader(webpLossless(300, 200))).toEqual({ format: 'webp', width: 300, height: 200 });
    expect(readImageHeader(webpExtended(4000, 3000))).toEqual({ format: 'webp', width: 4000, height: 3000 });
  });

  it('finds the JPEG frame after APP segments (EXIF, ICC) of any length', () => {
    const exif = new Uint8Array(2 + 2 + 5000);
    exif.set([0xff, 0xe1, (5002 >> 8) & 0xff, 5002 & 0xff]);
    const bytes = jpegHeader(2448, 3264, exif);
    expect(readImageHeader(bytes)).toMatchObject({ width: 2448, height: 3264 });
  });

  it('refuses a 30000 × 30000 PNG as a decompression bomb from its header, without decoding', () => {
    // A real, tiny PNG stream: the IDAT would inflate to 3.6 GB if anything decoded it.
    const bomb = png(30000, 30000, deflateSync(new Uint8Array(1024)));
    expect(bomb.length).toBeLessThan(2000);
    expect(() => checkImageHeader('bomb.png', readImageHeader(bomb))).toThrow(RefusedFile);
    expect(() => checkImageHeader('bomb.png', readImageHeader(bomb))).toThrow(
      /30000 × 30000 pixels \(900 MP\).*it was not opened/,
    );
    expect(() => checkImageHeader('bomb.jpg', readImageHeader(jpegHeader(30000, 30000)))).toThrow(/decl|30000/);
  });

  it('takes a phone photo and refuses just past the pixel limit', () => {
    expect(checkImageHeader('photo.jpg', readImageHeader(jpegHeader(4000, 3000)))).toEqual({
      width: 4000,
      height: 3000,
    });
    const side = Math.ceil(Math.sqrt(MAX_IMAGE_PIXELS)) + 1;
    expect(() => checkImageHeader('big.png', readImageHeader(png(side, side)))).toThrow(RefusedFile);
  });

  it('names TIFF and HEIC as formats a browser cannot decode, with what to do', () => {
    const tiff = new Uint8Array([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]);
    expect(() => checkImageHeader('scan.tif', readImageHeader(tiff))).toThrow(/TIFF.*PNG or JPEG/);
    const heic = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode('ftypheic'), 0, 0, 0, 0]);
    expect(() => checkImageHeader('IMG_0001.HEIC', readImageHeader(heic))).toThrow(/HEIC.*JPEG/);
  });

  it('refuses bytes that are no image, and a PNG cut short before its size', () => {
    expect(() => checkImageHeader('x.png', readImageHeader(new TextEncoder().encode('hello world')))).toThrow(
      /not an image/,
    );
    expect(() => checkImageHeader('x.png', readImageHeader(png(10, 10).subarray(0, 12)))).toThrow(/damaged/);
  });
});
