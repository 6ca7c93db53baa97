// A paired comparison of two rows of the accuracy table on the same questions: which questions each
// wins and loses against the other, and McNemar's exact test on those discordant pairs (the two-sided
// binomial test with p = 1/2, which is exact where the chi-squared form needs large counts; Self-RAG's
// Table 2 has no test, and at 137 questions a few answers either way are noise).

export interface Paired {
  /** Questions both rows answered. */
  n: number;
  /** Questions where `row` holds the gold and `base` does not. */
  wins: string[];
  /** Questions where `base` holds the gold and `row` does not. */
  losses: string[];
  /** Two-sided exact p of McNemar's test (1 when there are no discordant pairs). */
  p: number;
}

/** log C(n, k), summed in logs so 137 questions never overflow. */
const logChoose = (n: number, k: number): number => {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
};

/** Two-sided exact McNemar p for b and c discordant pairs. */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** Compare `row` with `base` on the questions both answered (gold by question id). */
export function paired(row: Map<string, boolean>, base: Map<string, boolean>): Paired {
  const ids = [...row.keys()].filter((id) => base.has(id)).sort();
  const wins = ids.filter((id) => row.get(id) && !base.get(id));
  const losses = ids.filter((id) => !row.get(id) && base.get(id));
  return { n: ids.length, wins, losses, p: mcnemarExact(wins.length, losses.length) };
}
