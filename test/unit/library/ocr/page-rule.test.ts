// Which PDF pages are recognised, and how large a page is rendered for it.
import { describe, expect, it } from 'vitest';
import {
  fitScale,
  MAX_OCR_PIXELS,
  OCR_DPI,
  pdfRenderScale,
  checkOcrPageCount,
  MAX_OCR_PAGES,
} from '../../../../src/library/ocr/limits';
import { MIN_TEXT_LAYER_CHARS, pageNeedsOcr } from '../../../../src/library/ocr/page-rule';

describe('page needs OCR', () => {
  it('recognises a page with no text layer, or only a stamped page number or header', () => {
    expect(pageNeedsOcr('')).toBe(true);
    expect(pageNeedsOcr('  \n ')).toBe(true);
    expect(pageNeedsOcr('Page 3 of 12')).toBe(true);
    expect(pageNeedsOcr('ACME Corp — scanned 2024-03-01 — confidential')).toBe(true);
  });

  it('keeps the text layer of a page with real text, even a short one', () => {
    expect(pageNeedsOcr('Chapter 1. The installation of the base system and the first boot.')).toBe(false);
    // The threshold counts visible characters: spacing does not make a thin layer thick.
    const thin = 'a '.repeat(MIN_TEXT_LAYER_CHARS - 1);
    expect(pageNeedsOcr(thin + ' '.repeat(500))).toBe(true);
    expect(pageNeedsOcr(thin + 'b')).toBe(false);
  });
});

describe('render resolution', () => {
  it('renders a letter page at the OCR resolution, within the pixel budget', () => {
    const scale = pdfRenderScale(612, 792);
    expect(scale).toBeCloseTo(OCR_DPI / 72, 5);
    expect(612 * scale * 792 * scale).toBeLessThanOrEqual(MAX_OCR_PIXELS);
  });

  it('renders a poster-sized page at a lower resolution that fits the budget', () => {
    const scale = pdfRenderScale(2384, 3370); // A0 in points
    expect(scale).toBeLessThan(OCR_DPI / 72);
    expect(2384 * scale * 3370 * scale).toBeLessThanOrEqual(MAX_OCR_PIXELS * 1.0001);
  });

  it('shrinks only images above the budget', () => {
    expect(fitScale(2000, 3000)).toBe(1);
    const s = fitScale(8000, 6000);
    expect(8000 * s * 6000 * s).toBeCloseTo(MAX_OCR_PIXELS, -3);
  });
});

describe('page limit', () => {
  it('refuses a PDF with more scanned pages than the limit, saying what to do', () => {
    expect(() => checkOcrPageCount('manual.pdf', MAX_OCR_PAGES)).not.toThrow();
    expect(() => checkOcrPageCount('archive.pdf', 3000)).toThrow(/3000 scanned pages.*split it into parts/);
  });
});
