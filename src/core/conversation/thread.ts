// A conversation as a tree of turns. Editing a question or regenerating an answer adds a
// sibling instead of overwriting, so every version stays reachable (‹ 2/3 ›); the thread
// remembers which sibling is shown at each fork, and that choice defines the active path.
import type { ScoredPassage } from '../ports';
import type { AnswerTree } from '../types';

export type TurnStatus = 'done' | 'stopped' | 'failed';

/** A turn's answer quality figures (RAGAS), kept with the turn that produced them. */
export type TurnFigures = Record<string, number | null>;

export interface Turn {
  id: string;
  parentId: string | null;
  /** Ids of the turns that follow this one (versions of the next question), oldest first. */
  children: string[];
  question: string;
  /** The standalone search query a follow-up was rewritten into (null for a first question or no rewrite). */
  rewrite: string | null;
  /** The query retrieval actually used (the rewrite, the user's edit of it, or the joined questions). */
  searchQuery?: string;
  /** Everything the decode considered, so the turn can be re-ranked later; null in evidence-only mode. */
  answer: AnswerTree | null;
  /** Text of the chosen segments when the turn was saved (what history and exports quote). */
  answerText: string;
  /** Evidence-only mode: the passages shown instead of a written answer. */
  passages?: ScoredPassage[];
  /** The settings the turn was written with (opaque to the core, JSON-safe). */
  settings: Record<string, unknown>;
  /** The generator model id, or null when no generator wrote it. */
  model: string | null;
  status: TurnStatus;
  /** Why it failed or stopped, in the page's words. */
  error?: string;
  figures?: TurnFigures;
  /** Earlier turns left out of the decode's context to fit the model window. */
  droppedTurns?: number;
  /**
   * Passages search by meaning reached out of all the library's passages when the turn was
   * searched, kept only when not all of them had vectors (the rest were found by their words).
   */
  meaningCoverage?: { embedded: number; total: number };
  createdAt: number;
}

export interface Thread {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  turns: Record<string, Turn>;
  /** First questions (more than one after the first question was edited). */
  roots: string[];
  /** Which child is shown after each turn ('' for the roots); absent means the newest. */
  selected: Record<string, string>;
}

const ROOT = '';
const TITLE_MAX = 80;

/** A title from the first question: its first line, shortened at a word. */
export function titleFrom(question: string): string {
  const line = question.trim().split('\n')[0]!.replace(/\s+/g, ' ');
  if (line.length <= TITLE_MAX) return line || 'New thread';
  const cut = line.slice(0, TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${space > 40 ? cut.slice(0, space) : cut}…`;
}

export function emptyThread(id: string, now: number, title = 'New thread'): Thread {
  return { id, title, createdAt: now, updatedAt: now, turns: {}, roots: [], selected: {} };
}

function childrenOf(t: Thread, parentId: string | null): string[] {
  return parentId === null ? t.roots : (t.turns[parentId]?.children ?? []);
}

/** Adds a turn under its parent and makes it the shown version; the first turn names an untitled thread. */
export function addTurn(t: Thread, turn: Omit<Turn, 'children'>, now: number): Thread {
  if (t.turns[turn.id]) throw new Error(`Turn ${turn.id} already exists.`);
  if (turn.parentId !== null && !t.turns[turn.parentId])
    throw new Error(`Turn ${turn.id} has no parent ${turn.parentId} in this thread.`);
  const turns = { ...t.turns, [turn.id]: { ...turn, children: [] } };
  let roots = t.roots;
  if (turn.parentId === null) roots = [...roots, turn.id];
  else {
    const parent = turns[turn.parentId]!;
    turns[turn.parentId] = { ...parent, children: [...parent.children, turn.id] };
  }
  const selected = { ...t.selected, [turn.parentId ?? ROOT]: turn.id };
  const title = t.roots.length === 0 && t.title === 'New thread' ? titleFrom(turn.question) : t.title;
  return { ...t, title, turns, roots, selected, updatedAt: now };
}

/** Replaces fields of a turn (as it streams, when it ends, when its figures arrive). */
export function updateTurn(
  t: Thread,
  id: string,
  patch: Partial<Omit<Turn, 'id' | 'parentId' | 'children'>>,
  now: number,
): Thread {
  const turn = t.turns[id];
  if (!turn) return t;
  return { ...t, turns: { ...t.turns, [id]: { ...turn, ...patch } }, updatedAt: now };
}

/** The turns shown, first question first: at each fork the selected version, else the newest. */
export function activePath(t: Thread): Turn[] {
  const path: Turn[] = [];
  let ids = t.roots;
  let key = ROOT;
  while (ids.length > 0) {
    const pick = t.selected[key];
    const id = pick && ids.includes(pick) ? pick : ids[ids.length - 1]!;
    const turn = t.turns[id];
    if (!turn) break;
    path.push(turn);
    ids = turn.children;
    key = id;
  }
  return path;
}

/** The turns before one on its own branch (its ancestors), oldest first. */
export function ancestors(t: Thread, id: string): Turn[] {
  const out: Turn[] = [];
  let cur = t.turns[id]?.parentId ?? null;
  while (cur !== null) {
    const turn = t.turns[cur];
    if (!turn) break;
    out.unshift(turn);
    cur = turn.parentId;
  }
  return out;
}

/** Where a turn sits among its versions: 1-based position and how many there are. */
export function siblingPosition(t: Thread, id: string): { index: number; count: number } {
  const turn = t.turns[id];
  if (!turn) return { index: 0, count: 0 };
  const ids = childrenOf(t, turn.parentId);
  return { index: ids.indexOf(id) + 1, count: ids.length };
}

/** Shows the previous (-1) or next (+1) version of a turn; the path below follows that version's own choices. */
export function stepSibling(t: Thread, id: string, delta: -1 | 1): Thread {
  const turn = t.turns[id];
  if (!turn) return t;
  const ids = childrenOf(t, turn.parentId);
  const next = ids[ids.indexOf(id) + delta];
  if (!next) return t;
  return { ...t, selected: { ...t.selected, [turn.parentId ?? ROOT]: next } };
}

/** Makes a turn (and the branch leading to it) the one shown. */
export function selectTurn(t: Thread, id: string): Thread {
  const selected = { ...t.selected };
  let cur: Turn | undefined = t.turns[id];
  while (cur) {
    selected[cur.parentId ?? ROOT] = cur.id;
    cur = cur.parentId === null ? undefined : t.turns[cur.parentId];
  }
  return { ...t, selected };
}

/** Every turn of the tree, in creation order (for counts and exports). */
export function allTurns(t: Thread): Turn[] {
  return Object.values(t.turns).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}
