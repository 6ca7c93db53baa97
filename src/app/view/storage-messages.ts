// What the page says about storage: how much this site uses and may use, what to delete to make
// room, a quota error's message and the warning before a download that will not fit. Pure
// wording over the browser's estimate (browser/storage-quota.ts reads it).
import { formatBytes } from './progress';
import { isQuotaError } from '../../library/quota';

export interface StorageEstimate {
  usage: number;
  quota: number;
}

/** "1.2 GB used of 3.0 GB this site may use (1.8 GB free)". */
export function estimateText(e: StorageEstimate): string {
  return `${formatBytes(e.usage)} used of ${formatBytes(e.quota)} this site may use (${formatBytes(Math.max(0, e.quota - e.usage))} free)`;
}

/** What to delete to make room: the biggest things first. */
export const FREE_SPACE_ADVICE =
  'To make room, delete a downloaded language model you do not use (Status → Language model → Delete; each takes 0.5–4 GB), ' +
  'or remove documents you no longer need from the library, then try again.';

/**
 * The message for a quota error while storing `what` ("the document bees.md", "the model
 * Qwen2.5 1.5B"), or null when the error is something else. Nothing is half-written: the
 * library writes a document in one transaction, and model libraries cache file by file.
 */
export function quotaMessage(e: unknown, what: string, estimate?: StorageEstimate | null): string | null {
  if (!isQuotaError(e)) return null;
  const used = estimate ? ` (${estimateText(estimate)})` : '';
  return `The browser has no room left for this site to store ${what}${used}, so it was not saved. ${FREE_SPACE_ADVICE}`;
}

/** A warning when `bytes` will not fit in what the site may still use, else null. */
export function fitWarning(bytes: number, what: string, estimate: StorageEstimate | null): string | null {
  if (!estimate || !(bytes > 0)) return null;
  const free = estimate.quota - estimate.usage;
  if (bytes <= free) return null;
  return `${what} needs up to ${formatBytes(bytes)}, but this site may only store ${formatBytes(Math.max(0, free))} more (${estimateText(estimate)}). The download will probably fail. ${FREE_SPACE_ADVICE}`;
}
