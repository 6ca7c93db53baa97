// The production build's first download stays small: the entry chunk and what it preloads, gzipped,
// within 95 KiB. What the first screen does not need (the answer, the passage dialog, thread export
// and import, the evaluation page, the pickers...) loads on first use (src/ui/lazy-panels.tsx); a
// static import of one of those from the first screen's code puts it back here and fails this.
// Reads the build the browser project's set-up made (dist/); it measures bytes, not time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY_BUDGET_BYTES, entryBytes } from './entry-bytes';
import { PROD_DIR } from './harness';

describe('the production entry chunk', () => {
  it('is within 95 KiB gzipped with everything it preloads', () => {
    const { bytes, files } = entryBytes(PROD_DIR);
    const list = files.map((f) => `${f.file} ${f.bytes} B`).join(', ');
    expect(
      files.some((f) => /^assets\/index-[\w-]+\.js$/.test(f.file)),
      `the entry is index-*.js: ${list}`,
    ).toBe(true);
    expect(bytes, `first download ${bytes} B gzipped (${list}); budget ${ENTRY_BUDGET_BYTES} B`).toBeLessThanOrEqual(
      ENTRY_BUDGET_BYTES,
    );
  });

  it('leaves out the panels that load on first use, and keeps the first screen', () => {
    const code = entryBytes(PROD_DIR)
      .files.map((f) => readFileSync(join(PROD_DIR, f.file), 'utf8'))
      .join('\n');
    // Each panel's own user-visible text survives minification: finding it means the panel is in the entry.
    const lazy = {
      'the answer view': 'No segment was finished.',
      'the passage dialog': 'Highlighted: the sentence that shares the most words',
      'the model picker': 'Your own model (compiled with MLC LLM)',
      'the offline panel': 'Offline and storage',
    };
    expect(
      Object.entries(lazy)
        .filter(([, text]) => code.includes(text))
        .map(([what]) => what),
    ).toEqual([]);
    expect(code).toContain('Skip to the question');
  });
});
