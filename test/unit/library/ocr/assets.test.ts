// The download size the page tells a reader before their first scan matches the
// files the build copies (vite.ocr.ts), and no CDN is ever where they come from.
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OCR_DOWNLOAD_BYTES, OCR_FILES } from '../../../../src/library/ocr/assets';
import { ocrSources } from '../../../../vite.ocr';

describe('OCR assets', () => {
  it('serves every file the engine loads, from node_modules, and says their size truthfully', () => {
    const sources = ocrSources();
    expect([...sources.keys()].sort()).toEqual([OCR_FILES.worker, ...OCR_FILES.cores, OCR_FILES.lang].sort());
    const size = (path: string) => statSync(sources.get(path)!).size;
    // A browser loads the worker, one core (whichever its SIMD support picks) and the model.
    const largest = size(OCR_FILES.worker) + Math.max(...OCR_FILES.cores.map(size)) + size(OCR_FILES.lang);
    const smallest = size(OCR_FILES.worker) + Math.min(...OCR_FILES.cores.map(size)) + size(OCR_FILES.lang);
    expect(Math.abs(largest - OCR_DOWNLOAD_BYTES) / OCR_DOWNLOAD_BYTES).toBeLessThan(0.05);
    expect(Math.abs(smallest - OCR_DOWNLOAD_BYTES) / OCR_DOWNLOAD_BYTES).toBeLessThan(0.05);
  });
});
