// What the library panel shows of work under way and done: a batch's one progress bar (bytes and
// files, or a scan's pages while they are recognised), a file's own bar, why a file was refused,
// and the report of a finished batch. Pure: the library connection computes them as work reports in.
import type { AddResult, LibraryProgress } from '../../library/library';
import { quotaMessage } from './storage-messages';
import type { BatchReportView } from '../persist/batch-reports';
import type { LibraryJobView } from '../state/library';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A user batch's bar; a scan's pages are counted on their own clock (`recognisingSince`), the slow part of such a file. */
export function batchJob(
  p: LibraryProgress,
  batchStartedAt: number,
  recognisingSince: number,
  at: number,
): { job: LibraryJobView; recognisingSince: number } {
  const done = p.filesDone ?? 0;
  const adding = `Adding ${plural(p.fileCount, 'file')}: ${done} done`;
  if (p.stage === 'recognising' && p.pagesTotal) {
    const since = p.pagesDone === 0 || !recognisingSince ? at : recognisingSince;
    return {
      recognisingSince: since,
      job: {
        id: 'batch',
        label: `${adding}, now recognising the text of ${p.name}`,
        loaded: p.pagesDone ?? 0,
        total: p.pagesTotal,
        unit: 'pages',
        startedAt: since,
      },
    };
  }
  return {
    recognisingSince: 0,
    job: {
      id: 'batch',
      label: `${adding}${done < p.fileCount ? `, now ${p.name}` : ''}`,
      loaded: p.bytesDone ?? 0,
      total: p.bytesTotal || null,
      unit: 'bytes',
      startedAt: batchStartedAt,
    },
  };
}

/** A file's own bar (a batch without a byte total: the starter library). */
export function fileJob(p: LibraryProgress, id: string, startedAt: number): LibraryJobView {
  const verb = p.stage === 'embedding' ? 'Indexing' : p.stage === 'saving' ? 'Saving' : 'Reading';
  return {
    id,
    label: `${verb} ${p.name} (${p.fileIndex + 1} of ${p.fileCount})`,
    loaded: p.passagesDone ?? 0,
    total: p.passagesTotal ?? null,
    unit: 'passages',
    startedAt,
  };
}

/** Why a file was not added, in words (a full quota says what to delete). */
export function refusal(p: LibraryProgress): string {
  return (
    quotaMessage(p.message, `the document ${p.name}`) ??
    `${p.name} was not added: ${p.message ?? 'it could not be read.'}`
  );
}

/** What one batch did, kept on screen until dismissed: documents kept without vectors are grouped by why. */
export function batchReport(r: AddResult, id: number, files: number, skipped: number): BatchReportView {
  const tried = r.added.length + r.refused.length + r.already.length;
  const notEmbedded = new Map<string, string[]>();
  for (const d of r.notEmbedded) notEmbedded.set(d.reason, [...(notEmbedded.get(d.reason) ?? []), d.name]);
  return {
    id,
    added: r.added.length,
    ...(r.already.length ? { already: r.already.length } : {}),
    refused: r.refused,
    notes: r.notes,
    notEmbedded: [...notEmbedded].map(([reason, names]) => ({ reason, names })),
    skipped,
    aborted: r.aborted,
    notTried: Math.max(0, files - tried),
  };
}
