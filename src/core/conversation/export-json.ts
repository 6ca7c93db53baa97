// A thread as JSON: the whole tree, every sibling, each turn's settings and model. The
// import checks the shape before anything is stored, so a malformed file or one from a
// newer version is refused with a clear message and nothing already kept is touched.
import type { Thread, Turn } from './thread';

export const THREAD_FORMAT = 'selfrag-thread';
export const THREAD_FORMAT_VERSION = 1;

export interface ThreadFile {
  format: typeof THREAD_FORMAT;
  version: number;
  exportedAt: string;
  thread: Thread;
}

export function threadToJson(thread: Thread, now: Date = new Date()): string {
  const file: ThreadFile = {
    format: THREAD_FORMAT,
    version: THREAD_FORMAT_VERSION,
    exportedAt: now.toISOString(),
    thread,
  };
  return JSON.stringify(file, null, 2);
}

export class ThreadImportError extends Error {
  override name = 'ThreadImportError';
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const STATUSES = new Set(['done', 'stopped', 'failed']);

function fail(msg: string): never {
  throw new ThreadImportError(`This file cannot be imported: ${msg}`);
}

function checkTurn(id: string, raw: unknown): Turn {
  if (!isObj(raw)) fail(`turn ${id} is not an object.`);
  if (raw.id !== id) fail(`turn ${id} is stored under another id.`);
  if (typeof raw.question !== 'string' || !raw.question.trim()) fail(`turn ${id} has no question.`);
  if (raw.parentId !== null && typeof raw.parentId !== 'string') fail(`turn ${id} has a bad parent.`);
  if (!Array.isArray(raw.children) || !raw.children.every((c) => typeof c === 'string'))
    fail(`turn ${id} has bad children.`);
  if (typeof raw.status !== 'string' || !STATUSES.has(raw.status)) fail(`turn ${id} has an unknown status.`);
  if (typeof raw.answerText !== 'string') fail(`turn ${id} has no answer text.`);
  if (raw.answer !== null && !(isObj(raw.answer) && Array.isArray(raw.answer.candidates) && isObj(raw.answer.settings)))
    fail(`turn ${id} has a malformed answer tree.`);
  if (raw.rewrite !== null && raw.rewrite !== undefined && typeof raw.rewrite !== 'string')
    fail(`turn ${id} has a bad rewrite.`);
  if (!isObj(raw.settings)) fail(`turn ${id} has no settings.`);
  if (raw.model !== null && typeof raw.model !== 'string') fail(`turn ${id} has a bad model.`);
  if (typeof raw.createdAt !== 'number') fail(`turn ${id} has no time.`);
  return { ...(raw as unknown as Turn), rewrite: (raw.rewrite as string | null | undefined) ?? null };
}

/** Reads an exported thread; throws ThreadImportError with the reason when it is not one this version can read. */
export function threadFromJson(text: string): Thread {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    fail('it is not valid JSON.');
  }
  if (!isObj(data) || data.format !== THREAD_FORMAT) fail('it is not a thread exported from this page.');
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1)
    fail('its version is missing.');
  if (data.version > THREAD_FORMAT_VERSION)
    fail(
      `it was written by a newer version of this page (format ${data.version}; this page reads up to ${THREAD_FORMAT_VERSION}). Update the page and import it again.`,
    );
  const t = data.thread;
  if (!isObj(t)) fail('it holds no thread.');
  if (typeof t.id !== 'string' || typeof t.title !== 'string') fail('the thread has no id or title.');
  if (!isObj(t.turns) || !Array.isArray(t.roots) || !isObj(t.selected)) fail('the thread has no turns.');
  const turns: Record<string, Turn> = {};
  for (const [id, raw] of Object.entries(t.turns)) turns[id] = checkTurn(id, raw);
  // Every link must point at a turn in the file, each turn reachable exactly once from the roots.
  const seen = new Set<string>();
  const walk = (ids: unknown[], parent: string | null) => {
    for (const id of ids) {
      if (typeof id !== 'string' || !turns[id]) fail(`it links to a turn that is not in the file (${String(id)}).`);
      if (seen.has(id)) fail(`turn ${id} appears twice in the tree.`);
      if (turns[id].parentId !== parent) fail(`turn ${id} names the wrong parent.`);
      seen.add(id);
      walk(turns[id].children, id);
    }
  };
  walk(t.roots, null);
  if (seen.size !== Object.keys(turns).length) fail('some turns are not connected to the tree.');
  const selected: Record<string, string> = {};
  for (const [k, v] of Object.entries(t.selected)) if (typeof v === 'string' && turns[v]) selected[k] = v;
  const created = typeof t.createdAt === 'number' ? t.createdAt : 0;
  return {
    id: t.id,
    title: t.title.trim() || 'Imported thread',
    createdAt: created,
    updatedAt: typeof t.updatedAt === 'number' ? t.updatedAt : created,
    turns,
    roots: t.roots as string[],
    selected,
  };
}
