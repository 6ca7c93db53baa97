// A thread as Markdown, the form people paste into notes: each question, its answer with
// every citation as a footnote quoting the sentence that supports it, and the critique
// badges as words. Only the shown versions (the active path) are written; the JSON export
// keeps every sibling. Document text and model output are escaped so they stay text.
import type { Passage } from '../ports';
import { rerank } from '../rerank';
import { citationLabel, placeLabel, PLACE_NOT_KNOWN } from '../source-location';
import { normaliseRel, normaliseSup, normaliseUse } from '../scores';
import type { Candidate, RankSettings } from '../types';
import { activePath, siblingPosition, type Thread, type Turn } from './thread';

export interface MarkdownOptions {
  /** Weights that pick each turn's answer from its tree (the page's current ones). */
  rank: RankSettings;
  /** The passage sentence supporting a segment, as a character range, or null. */
  supporting?: (passageText: string, segmentText: string) => { start: number; end: number } | null;
}

/** Escapes Markdown's inline syntax so untrusted text renders as itself. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\`*_[\]{}<>#|!~])/g, '\\$1')
    .replace(/^(\s*)([-+])(\s)/gm, '$1\\$2$3')
    .replace(/^(\s*)(\d+)\.(\s)/gm, '$1$2\\.$3');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** "Debian Policy, p. 12", "Rust book › Ch. 16 › Using Message Passing", or "Notes, passage 3" where the place is not known. */
function where(p: Passage): string {
  const label = citationLabel({ ...p, title: oneLine(p.title) });
  return label.endsWith(` · passage ${p.index + 1}`) ? `${oneLine(p.title)}, passage ${p.index + 1}` : label;
}

/** The place alone, after the title: "p. 12", "Ch. 16 › Threads", or "passage 3". */
function whereIn(p: Passage): string {
  const place = placeLabel(p);
  return place && place !== PLACE_NOT_KNOWN ? place : `passage ${p.index + 1}`;
}

function top<T extends string>(entries: [T, number][]): T {
  return entries.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** The badges of a candidate in words, as the page shows them. */
export function badgeText(c: Pick<Candidate, 'rel' | 'sup' | 'use' | 'fromGenerator'>): string {
  const out: string[] = [];
  try {
    const rel = c.rel ?? c.fromGenerator.rel;
    if (rel) {
      const r = normaliseRel(rel);
      out.push(r.relevant >= r.irrelevant ? 'Relevant' : 'Irrelevant');
    }
  } catch {
    // A malformed group shows no badge rather than a wrong one (as on the page).
  }
  try {
    const sup = c.sup ?? c.fromGenerator.sup;
    if (sup) {
      const s = normaliseSup(sup);
      const t = top([
        ['Fully supported', s.full],
        ['Partially supported', s.partial],
        ['No support', s.none],
      ]);
      out.push(t);
    }
  } catch {
    // as above
  }
  try {
    const use = c.use ?? c.fromGenerator.use;
    if (use) {
      const u = normaliseUse(use);
      out.push(`Utility ${u.indexOf(Math.max(...u)) + 1}/5`);
    }
  } catch {
    // as above
  }
  return out.join(' · ');
}

function chosenSegments(turn: Turn, rank: RankSettings): Candidate[] {
  if (!turn.answer || turn.answer.candidates.length === 0) return [];
  try {
    return rerank(turn.answer, rank)
      .best.map((b) => b.candidate)
      .filter((c) => c.text.trim().length > 0);
  } catch {
    return [];
  }
}

export function threadToMarkdown(thread: Thread, opts: MarkdownOptions): string {
  const lines: string[] = [`# ${escapeMarkdown(oneLine(thread.title))}`, ''];
  const notes: string[] = [];
  let n = 0;
  const path = activePath(thread);
  path.forEach((turn, i) => {
    const pos = siblingPosition(thread, turn.id);
    const version = pos.count > 1 ? ` (version ${pos.index} of ${pos.count})` : '';
    lines.push(`## ${i + 1}. ${escapeMarkdown(oneLine(turn.question))}${version}`, '');
    if (turn.rewrite) lines.push(`*Searched as:* ${escapeMarkdown(oneLine(turn.searchQuery ?? turn.rewrite))}`, '');
    const segments = chosenSegments(turn, opts.rank);
    if (segments.length > 0) {
      for (const c of segments) {
        let line = escapeMarkdown(oneLine(c.text));
        if (c.passage) {
          n += 1;
          line += `[^${n}]`;
          const range = opts.supporting?.(c.passage.text, c.text) ?? null;
          const quote = oneLine(range ? c.passage.text.slice(range.start, range.end) : c.passage.text.slice(0, 200));
          notes.push(`[^${n}]: ${escapeMarkdown(where(c.passage))}: “${escapeMarkdown(quote)}”`);
        }
        const badges = badgeText(c);
        if (badges) line += ` *(${badges})*`;
        lines.push(line, '');
      }
    } else if (turn.passages && turn.passages.length > 0) {
      lines.push('*Passages found (no written answer):*', '');
      for (const p of turn.passages)
        lines.push(
          `- **${escapeMarkdown(oneLine(p.title))}**, ${escapeMarkdown(whereIn(p))}: ${escapeMarkdown(oneLine(p.text).slice(0, 300))}`,
        );
      lines.push('');
    } else if (turn.answerText.trim()) {
      lines.push(escapeMarkdown(oneLine(turn.answerText)), '');
    } else {
      lines.push('*No answer was finished.*', '');
    }
    if (turn.status !== 'done')
      lines.push(
        `*${turn.status === 'stopped' ? 'Stopped before the end.' : `Failed: ${escapeMarkdown(oneLine(turn.error ?? 'unknown error'))}`}*`,
        '',
      );
    if (turn.model) lines.push(`<sub>Model: ${escapeMarkdown(turn.model)}</sub>`, '');
  });
  if (notes.length > 0) lines.push('---', '', ...notes, '');
  return lines.join('\n');
}
