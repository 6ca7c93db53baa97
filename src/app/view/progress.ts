// Human-readable progress for downloads and ingestion: bytes and time left.

export interface ProgressSample {
  loaded: number;
  total: number | null;
  /** ms timestamp when the job started. */
  startedAt: number;
  now: number;
  unit?: 'bytes' | 'passages' | 'pages';
}

/**
 * Bytes in decimal units (1 KB = 1000 B), as the operating system, the browser's storage
 * estimate and model download sizes are shown: one rule for every size on the page, so a
 * download's size and the free space it is checked against read alike. '?' for no number.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Time left from the average rate so far; null until it can be estimated. */
export function timeLeft(p: ProgressSample): number | null {
  const elapsed = p.now - p.startedAt;
  if (p.total === null || p.total <= 0 || p.loaded <= 0 || elapsed <= 0) return null;
  const remaining = Math.max(0, p.total - p.loaded);
  return remaining / (p.loaded / elapsed);
}

export function describeProgress(p: ProgressSample): string {
  const fmt = p.unit === 'passages' || p.unit === 'pages' ? (n: number) => `${n}` : formatBytes;
  const suffix = p.unit === 'passages' ? ' passages' : p.unit === 'pages' ? ' pages recognised' : '';
  const parts = [(p.total ? `${fmt(p.loaded)} of ${fmt(p.total)}` : fmt(p.loaded)) + suffix];
  const left = timeLeft(p);
  if (left !== null && p.total !== null && p.loaded < p.total) parts.push(`about ${formatDuration(left)} left`);
  return parts.join(', ');
}
