import { errorMessage } from '../core/errors';
// A question set is JSONL: one JSON object per line,
//   {"question": "...", "answers": ["gold", ...], "id"?: "...", "documents"?: [{"title"?: "...", "text": "..."}]}
// Lines are untrusted user input: every problem is reported with its line number and the
// whole set is refused, so a run never silently skips a question.

export interface EvalDocument {
  title: string;
  text: string;
}

export interface EvalItem {
  id: string;
  /** 1-based line in the file, for messages. */
  line: number;
  question: string;
  answers: string[];
  /** When present, the question is answered from these documents instead of the library. */
  documents?: EvalDocument[];
}

export interface ParsedSet {
  items: EvalItem[];
  errors: string[];
}

const MAX_ERRORS = 20;

export function parseQuestionSet(text: string): ParsedSet {
  const items: EvalItem[] = [];
  const errors: string[] = [];
  const ids = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim() || errors.length >= MAX_ERRORS) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      errors.push(`Line ${line}: not valid JSON (${errorMessage(e)}).`);
      return;
    }
    const problem = validate(value);
    if (typeof problem === 'string') {
      errors.push(`Line ${line}: ${problem}`);
      return;
    }
    const id = problem.id ?? `q${line}`;
    if (ids.has(id)) {
      errors.push(`Line ${line}: the id "${id}" is used twice.`);
      return;
    }
    ids.add(id);
    items.push({ ...problem, id, line });
  });
  if (errors.length >= MAX_ERRORS) errors.push('Stopped after 20 problems.');
  if (!items.length && !errors.length) errors.push('The question set is empty: it needs one JSON object per line.');
  return { items, errors };
}

function validate(v: unknown): string | (Omit<EvalItem, 'line' | 'id'> & { id?: string }) {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return 'expected a JSON object like {"question": "...", "answers": ["..."]}.';
  const o = v as Record<string, unknown>;
  if (typeof o.question !== 'string' || !o.question.trim()) return '"question" must be a non-empty string.';
  if (!Array.isArray(o.answers) || o.answers.length === 0) return '"answers" must be a non-empty list of gold answers.';
  if (!o.answers.every((a): a is string => typeof a === 'string' && a.trim() !== ''))
    return 'every entry of "answers" must be a non-empty string.';
  if (o.id !== undefined && (typeof o.id !== 'string' || !o.id.trim()))
    return '"id", when given, must be a non-empty string.';
  const out: Omit<EvalItem, 'line' | 'id'> & { id?: string } = {
    question: o.question.trim(),
    answers: o.answers.map((a) => a.trim()),
  };
  if (typeof o.id === 'string') out.id = o.id.trim();
  if (o.documents !== undefined) {
    if (!Array.isArray(o.documents) || o.documents.length === 0)
      return '"documents", when given, must be a non-empty list.';
    const docs: EvalDocument[] = [];
    for (const [k, d] of o.documents.entries()) {
      if (typeof d === 'string' && d.trim()) {
        docs.push({ title: `Document ${k + 1}`, text: d });
        continue;
      }
      if (typeof d !== 'object' || d === null) return `document ${k + 1} must be a string or an object with "text".`;
      const doc = d as Record<string, unknown>;
      if (typeof doc.text !== 'string' || !doc.text.trim()) return `document ${k + 1} needs a non-empty "text".`;
      if (doc.title !== undefined && typeof doc.title !== 'string')
        return `document ${k + 1}: "title" must be a string.`;
      docs.push({
        title: typeof doc.title === 'string' && doc.title.trim() ? doc.title.trim() : `Document ${k + 1}`,
        text: doc.text,
      });
    }
    out.documents = docs;
  }
  return out;
}

/** PopQA-style accuracy: the answer counts as correct if it contains any gold answer, ignoring case and spacing. */
export function containsGold(answer: string, golds: readonly string[]): boolean {
  const a = squash(answer);
  return golds.some((g) => {
    const s = squash(g);
    return s !== '' && a.includes(s);
  });
}

function squash(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}
