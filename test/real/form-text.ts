// "Form text shown", measured apart from the non-answer guard. The guard
// (src/generator/shared/non-answer.ts) withholds a candidate when half its word trigrams are the
// prompts' (copiedShare ≥ 0.5), so a check that reuses that function and threshold on what the page
// shows finds nothing by construction. This one looks for the templates' literal pieces instead: a
// field label ("Question:", "So far the answer says:"), an instruction or example sentence, the
// Self-RAG prompt's markers and reflection tokens, each found verbatim (case and spacing aside).
// The pieces are read from the prompt builders as sent, so a changed prompt changes them.
import {
  ALL_REFLECTION_TOKENS,
  formatSelfRagPrompt,
  PARAGRAPH_CLOSE,
  PARAGRAPH_OPEN,
} from '../../src/core/reflection-tokens';
import {
  answerMessages,
  decisionMessages,
  judgeMessages,
  relMessages,
  supMessages,
  useMessages,
} from '../../src/generator/prompts';

// Placeholders for what a prompt carries of the user's (question, passage, answer so far, statement).
const SLOTS = { question: 'QQQ', title: 'TTT', text: 'PPP', previous: 'SSS', statement: 'AAA' };
const SLOT = /QQQ|TTT|PPP|SSS|AAA/;

const fold = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[ \t]+/g, ' ');

/** Every literal piece of every prompt the model is sent: labels (ending in ":") and sentences. */
export function formPieces(): { labels: string[]; phrases: string[] } {
  const passage = { id: 'p', docId: 'd', title: SLOTS.title, text: SLOTS.text, index: 0 };
  const q = SLOTS.question;
  const answer = answerMessages(q, [SLOTS.previous], passage);
  const texts = [
    ...answer,
    ...useMessages(answer, SLOTS.statement),
    ...relMessages(q, passage),
    ...judgeMessages(q, passage),
    ...supMessages(q, passage, SLOTS.statement, 'Yes'),
    ...decisionMessages(q, [SLOTS.previous]),
  ].map((m) => m.content);
  texts.push(formatSelfRagPrompt(q, { title: SLOTS.title, text: SLOTS.text }, SLOTS.previous));
  const pieces = texts
    .flatMap((t) => t.split(SLOT))
    .flatMap((t) => t.split('\n'))
    .flatMap((t) => t.split(/(?<=[.?!])\s+/))
    // Clauses too, so that half a copied sentence is found ("edit the schedule key in backup.toml").
    .flatMap((t) => [t, ...t.split(/[,;]\s+/).filter((c) => c !== t && c.split(' ').length >= 4)])
    .map((t) => fold(t).trim())
    // A piece of punctuation left between two placeholders ('":') is no text of the form.
    .filter((t) => /\p{L}/u.test(t) && (t.endsWith(':') || t.split(' ').length >= 2));
  const labels = [...new Set(pieces.filter((t) => t.endsWith(':')))];
  const phrases = [...new Set(pieces.filter((t) => !t.endsWith(':')))];
  phrases.push(...[...ALL_REFLECTION_TOKENS, PARAGRAPH_OPEN, PARAGRAPH_CLOSE].map(fold));
  return { labels, phrases };
}

const PIECES = formPieces();

/**
 * The form's pieces found in a shown text. A label counts where a line or sentence begins with it
 * ("Question: …"), not inside one ("to answer your question: …"); any other piece anywhere.
 */
export function formTextIn(shown: string): string[] {
  const text = fold(shown);
  const starts = text.split(/\n|(?<=[.?!])\s+/).map((s) => s.trim());
  return [
    ...PIECES.labels.filter((label) => starts.some((s) => s.startsWith(label))),
    // A sentence of three words or more counts without its closing mark: "…asks what comes next."
    // copies "What comes next?" all the same.
    ...PIECES.phrases.filter(
      (p) => text.includes(p) || (p.split(' ').length >= 3 && /[.?!]$/.test(p) && text.includes(p.slice(0, -1))),
    ),
  ];
}
