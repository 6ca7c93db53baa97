// Re-ranking with the loaded model (Tuning: "Re-rank with: the loaded model"): where no
// cross-encoder is worth having, the generator that writes the answer judges the first stage's
// best 10, one judge turn a passage (the scripted web-llm double answers those turns here). The
// passages' ranks say the model judged them, the address carries the choice, and going back to the
// cross-encoder re-ranks with it again. What the model's judgement is worth on real documents is
// measured in `npm run bench -- generator-rerank` (docs/retrieval.md), not here.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useApp } from './app-page';
import { askAndSettle } from './ask';

const app = useApp('?modelPack=tiny&mode=always');

/** Who re-ranked each passage the viewed turn shows (its passages, or the "Why this segment" rows). */
async function rerankedBy(page: Page): Promise<string[]> {
  const turn = page.locator('[data-testid=turn].viewed');
  const why = turn.getByRole('button', { name: /Why this segment/ });
  if ((await why.count()) > 0) await why.first().click();
  const ranks = turn.getByTestId('passage-ranks');
  await ranks.first().waitFor();
  const by: string[] = [];
  for (const r of await ranks.all()) by.push((await r.getAttribute('data-rerank-by')) ?? '');
  return by;
}

describe('re-ranking with the loaded model', () => {
  it('asks the generator to judge the passages when chosen, says so on each passage and in the address, and goes back to the cross-encoder', async () => {
    const { page, errors } = await app.open();
    const tuning = page.getByTestId('drawer-tuning');
    if ((await tuning.getAttribute('open')) === null) await tuning.locator('summary').first().click();
    // The choice is offered only while re-ranking is on, with what it costs.
    expect(await page.getByTestId('rerank').isChecked()).toBe(true);
    expect(await page.getByTestId('reranker-cross-encoder').isChecked()).toBe(true);
    await page.getByTestId('reranker-generator').check();
    expect(await tuning.innerText()).toMatch(/one turn of the model for each/);

    expect(await askAndSettle(page, 'How do bees make honey?')).toMatch(/^done/);
    const judged = await rerankedBy(page);
    expect(judged.length).toBeGreaterThan(0);
    expect(new Set(judged)).toEqual(new Set(['generator']));
    expect(await page.locator('[data-testid=turn].viewed [data-testid=passage-ranks]').first().innerText()).toMatch(
      /the model's re-rank \d\.\d\d$/,
    );
    expect(new URL(page.url()).searchParams.get('rerank')).toBe('generator');

    await page.getByTestId('reranker-cross-encoder').check();
    expect(await askAndSettle(page, 'Why does the sea have tides?')).toMatch(/^done/);
    expect(new Set(await rerankedBy(page))).toEqual(new Set(['cross-encoder']));
    expect(new URL(page.url()).searchParams.get('rerank')).toBe('1');
    expect(errors).toEqual([]);
  });
});
