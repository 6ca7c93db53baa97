// How well a critic orders labelled pairs: pooled over every pair, and within each question.

/** ROC AUC: the chance a positive scores above a negative (ties count half). */
export function rocAuc(scores: number[], labels: boolean[]): number {
  const pos = scores.filter((_, i) => labels[i]);
  const neg = scores.filter((_, i) => !labels[i]);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

/**
 * ROC AUC within a question: for each question, the chance its answering passage scores above
 * each of its own negatives, averaged over the questions that have both. This is the comparison
 * Self-RAG's segment score makes (one question's candidates against each other); the pooled
 * figure also asks one question's scores to sit on the same scale as every other question's.
 */
export function withinQuestionAuc(scores: number[], pairs: { question: string; label: boolean }[]): number {
  const byQuestion = new Map<string, number[]>();
  pairs.forEach((p, i) => byQuestion.set(p.question, [...(byQuestion.get(p.question) ?? []), i]));
  const each: number[] = [];
  for (const ix of byQuestion.values()) {
    const labels = ix.map((i) => pairs[i]!.label);
    if (labels.includes(true) && labels.includes(false))
      each.push(
        rocAuc(
          ix.map((i) => scores[i]!),
          labels,
        ),
      );
  }
  return each.reduce((a, b) => a + b, 0) / Math.max(1, each.length);
}
