// The library panel's batch reports, kept until the visitor dismisses them, across reloads: a
// report of a folder of files is read after the work is done, and a reload must not lose it.
// Kept in localStorage; what is read back is untrusted (older versions, hand edits) and checked.

/** What one batch of files did, kept on screen until dismissed. */
export interface BatchReportView {
  id: number;
  added: number;
  /** Files whose text the library already held: neither added again nor counted as added. */
  already?: number;
  refused: { name: string; reason: string }[];
  /** Documents added with something left out or guessed. */
  notes: { name: string; note: string }[];
  /** Documents kept without vectors, grouped by why: one line per reason, not one per document. */
  notEmbedded?: { reason: string; names: string[] }[];
  /** Files in dropped or picked folders that are not documents. */
  skipped: number;
  /** Stopped by the user: files after the stop were not tried. */
  aborted: boolean;
  notTried: number;
}

const KEY = 'selfrag.batchReports';
/** A folder's worth of refusals is kept; older reports beyond this are dropped first. */
const MAX_REPORTS = 10;

export interface ReportShelf {
  load(): BatchReportView[];
  save(reports: readonly BatchReportView[]): void;
}

type KeyValue = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const isNamed = <K extends string>(x: unknown, key: K): x is { name: string } & Record<K, string> =>
  !!x &&
  typeof x === 'object' &&
  typeof (x as { name?: unknown }).name === 'string' &&
  typeof (x as Record<K, unknown>)[key] === 'string';

function valid(r: unknown): r is BatchReportView {
  if (!r || typeof r !== 'object') return false;
  const v = r as Record<string, unknown>;
  return (
    typeof v.id === 'number' &&
    typeof v.added === 'number' &&
    typeof v.skipped === 'number' &&
    typeof v.aborted === 'boolean' &&
    typeof v.notTried === 'number' &&
    Array.isArray(v.refused) &&
    v.refused.every((x) => isNamed(x, 'reason')) &&
    Array.isArray(v.notes) &&
    v.notes.every((x) => isNamed(x, 'note')) &&
    (v.already === undefined || typeof v.already === 'number') &&
    (v.notEmbedded === undefined ||
      (Array.isArray(v.notEmbedded) &&
        v.notEmbedded.every(
          (x) =>
            x &&
            typeof x.reason === 'string' &&
            Array.isArray(x.names) &&
            x.names.every((n: unknown) => typeof n === 'string'),
        )))
  );
}

/** Reports kept in `storage`; a page without storage (a cross-site frame) keeps them for the visit only. */
export function reportShelf(storage: KeyValue | undefined = browserStorage()): ReportShelf {
  return {
    load() {
      try {
        const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? '[]');
        return Array.isArray(parsed) ? parsed.filter(valid).slice(-MAX_REPORTS) : [];
      } catch {
        return [];
      }
    },
    save(reports) {
      try {
        if (reports.length === 0) storage?.removeItem(KEY);
        else storage?.setItem(KEY, JSON.stringify(reports.slice(-MAX_REPORTS)));
      } catch {
        // Full or refused storage: the reports stay on screen for this visit.
      }
    },
  };
}

function browserStorage(): KeyValue | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
