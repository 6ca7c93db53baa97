// The evidence-only notice repeats why no answer is written. That reason is a model error with
// its advice, written for the moment before the switch ("…, or use evidence-only mode."): in the
// mode itself that advice contradicts the notice, and a build command means nothing to a visitor.

/** The reason without advice to use evidence-only mode and without sentences that quote a command. */
export function evidenceNoticeReason(reason: string): string {
  return reason
    .replace(/[,;]?\s*(?:or\s+)?use evidence-only mode(?=[.!]|\s*$)/gi, '')
    .split(/(?<=[.!?])\s+/)
    .filter((s) => !/\bnpm\s+run\b|`/.test(s))
    .join(' ')
    .trim();
}
