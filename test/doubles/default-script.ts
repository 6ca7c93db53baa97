// What the engine double writes when no test scripted it (the e2e build), turn by turn of the
// prompted conversation (src/generator/prompts.ts): the answer turn gets the unused passage
// sentence closest to the question, sometimes reworded or padded the way small models do; the
// critique turns get probabilities that judge what was actually written. Everything is derived
// from word overlap, so answers and rankings are reproducible and the critique weights have
// something to trade:
// - relevance: share of the question's content words found in the passage;
// - support: share of the statement's content words found in the passage, so a reworded
//   sentence is partly supported and a padded one less so;
// - utility: share of the question's content words the answer mentions.
import { FNV_OFFSET, fnv1aStep } from '../../src/core/fnv1a';
import type { ScriptCall, ScriptedReply, Wanted } from './scripted-engine';

const STOP = new Set(
  'a an the of to in on at for and or is are was were be by with from as what which who whom whose when where why how does do did it its this that these those than then there their they i you he she we not no yes can could have has had'.split(
    ' ',
  ),
);

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP.has(w)));
}

/** Share of `a`'s content words that also occur in `b` (0 when `a` has none). */
export function overlap(a: string, b: string): number {
  const wa = words(a);
  if (!wa.size) return 0;
  const wb = words(b);
  let n = 0;
  for (const w of wa) if (wb.has(w)) n++;
  return n / wa.size;
}

function sentences(text: string): string[] {
  return (text.replace(/\s+/g, ' ').match(/[^.!?]+[.!?]+|[^.!?]+$/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

function field(user: string, label: string): string {
  return new RegExp(`^${label}: ?(.*)$`, 'm').exec(user)?.[1]?.trim() ?? '';
}

function twoWay(p: number, yes: string, no: string): Wanted {
  return { [yes]: p, [no]: 1 - p };
}

/** A peaked distribution over the five utility ratings around `score` in 0..1. */
function utility(score: number): Wanted {
  const centre = 1 + Math.round(score * 4);
  const w: Wanted = {};
  for (let r = 1; r <= 5; r++) w[`${r}`] = Math.exp(-Math.abs(r - centre) * 1.5);
  return w;
}

/**
 * A question holding these words gets, for every passage, the answer turn's own instructions (its
 * system prompt) in place of an answer, as small real models write: every candidate is withheld.
 */
export const COPY_THE_FORM = '(copy the form)';

export function defaultReply(call: ScriptCall): ScriptedReply {
  if (call.kind === 'completion') return nativeReply(call.prompt);
  // The follow-up rewrite (src/core/conversation/rewrite.ts): what a small model does at best.
  if (call.user.includes('\nFollow-up question: ')) return { text: rewriteFollowUp(call.user) };
  const grammar = call.grammar ?? '';
  if (grammar.includes('decision ::=')) {
    const soFar = call.last.includes('So far the answer says:');
    return { slots: { decision: twoWay(soFar ? 0.55 : 0.85, 'Yes', 'No') } };
  }
  if (grammar.includes('use ::=')) {
    const answer = [...call.messages].reverse().find((m) => m.role === 'assistant')?.content ?? '';
    const asked = call.messages.filter((m) => m.role === 'user').at(-2)?.content ?? '';
    return { slots: { use: utility(overlap(field(asked, 'Question'), answer)) } };
  }
  if (grammar.includes('rel ::=')) {
    const { passage } = passageOf(call.last);
    return { slots: { rel: twoWay(0.1 + 0.85 * overlap(field(call.last, 'Question'), passage), 'Yes', 'No') } };
  }
  if (grammar.includes('sup ::=')) {
    const { body } = passageOf(
      call.messages.find((m) => m.role === 'user' && m.content.includes('Passage from'))?.content ?? '',
    );
    return { slots: { sup: support(overlap(field(call.last, 'Statement'), body)) } };
  }
  if (call.last.includes('Passage from "') && !call.grammar) {
    // What small real models do (docs/benchmarks-answer.md): copy the prompt's own words as the answer.
    if (field(call.last, 'Question').includes(COPY_THE_FORM)) return { text: call.system ?? '' };
    return { text: answerTurn(call.last) };
  }
  const question = field(call.last, 'Question');
  // The answer turn without a passage (the model chose not to retrieve).
  if (call.system && !call.grammar && question) {
    return { text: 'The documents were not consulted for this part, so it is not grounded in them.' };
  }
  // A free instruction (query rewrite, plain RAG, RAGAS statements): the question's own words.
  const last = call.user.trim().split('\n').filter(Boolean).pop() ?? '';
  return { text: question || last.slice(0, 200) };
}

/** The passage block of a user message: the text after its title line, without Markdown headings. */
function passageOf(user: string): { passage: string; body: string } {
  const at = user.indexOf('Passage from "');
  if (at < 0) return { passage: '', body: '' };
  const rest = user.slice(at);
  const end = rest.search(/\n\n(Question|Statement): /);
  const passage = end < 0 ? rest : rest.slice(0, end);
  const body = passage.slice(passage.indexOf('\n') + 1).replace(/^#+ .*$/gm, '');
  return { passage, body };
}

/**
 * The answer turn: the unused passage sentence that best matches the question. When more of the
 * passage is left, a small model runs on into its next sentences (the generator stops it after
 * two, and the segment is not the end of the answer); otherwise it ends after the first.
 */
function answerTurn(user: string): string {
  const question = field(user, 'Question');
  const soFar = /So far the answer says: (.*)$/m.exec(user)?.[1]?.trim() ?? '';
  const { body } = passageOf(user);
  const all = sentences(body);
  const said = soFar.toLowerCase();
  const fresh = all.filter((s) => !said.includes(s.toLowerCase()));
  // The unused sentence that shares most words with the question (the earliest on a tie).
  const best = fresh.reduce<string | undefined>(
    (a, s) => (a === undefined || overlap(question, s) > overlap(question, a) ? s : a),
    undefined,
  );
  const text = write(best ?? all[all.length - 1] ?? body.slice(0, 200), question, body);
  const rest = fresh.filter((s) => s !== best);
  return rest.length > 1 && !soFar ? `${text} ${rest.slice(0, 2).join(' ')}` : text;
}

// Openers a model puts before a reworded sentence; their words are not in the passage.
const REWORDINGS = ['Put simply,', 'In short,', 'Broadly speaking,'];

/**
 * What the model makes of the sentence it picked. When the passage lacks some of the
 * question's words, it pads the sentence with a confident clause about them (the classic
 * unsupported addition: more useful-looking, less supported); otherwise it rewords every
 * third sentence (partly supported) and copies the rest (fully supported).
 */
function write(sentence: string, question: string, body: string): string {
  const inPassage = words(body);
  const missing = [...words(question)].filter((w) => !inPassage.has(w));
  if (missing.length > 0)
    return `${sentence} The same is true of ${missing.join(' and ')}, as experts generally agree.`;
  const h = hash(sentence);
  if (h % 3 !== 0) return sentence;
  return `${REWORDINGS[h % REWORDINGS.length]} ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
}

/** Support tokens for a share `s` of supported words: ISSUP (full + half of partial) comes out near `s`. */
function support(s: number): Wanted {
  return { Yes: 0.02 + s * s, Partially: 0.02 + 2 * s * (1 - s), No: 0.02 + (1 - s) * (1 - s) };
}

function hash(text: string): number {
  // Per code point (its first UTF-16 unit), not per code unit as fnv1aString goes: the scripts were tuned on this.
  let h = FNV_OFFSET;
  for (const c of text) h = fnv1aStep(h, c.charCodeAt(0));
  return h >>> 0;
}

/** A native Self-RAG reply: reflection tokens around the passage's first sentence. */
function nativeReply(prompt: string): ScriptedReply {
  const para = /<paragraph>([\s\S]*?)<\/paragraph>/.exec(prompt)?.[1] ?? '';
  const body = para.slice(para.indexOf('\n') + 1);
  if (!para)
    return { text: '[Retrieval]', tokenAlternatives: { '[Retrieval]': { '[Retrieval]': 0.7, '[No Retrieval]': 0.3 } } };
  const text = sentences(body)[0] ?? body;
  return {
    text: `[Relevant]${text}[Fully supported][Utility:5]`,
    tokenAlternatives: {
      '[Relevant]': { '[Relevant]': 0.8, '[Irrelevant]': 0.2 },
      '[Fully supported]': {
        '[Fully supported]': 0.7,
        '[Partially supported]': 0.2,
        '[No support / Contradictory]': 0.1,
      },
      '[Utility:5]': { '[Utility:5]': 0.6, '[Utility:4]': 0.3, '[Utility:3]': 0.1 },
    },
  };
}

const PRONOUN = /\b(them|they|it|that|this|those)\b(?![\s\S]*\b(them|they|it|that|this|those)\b)/i;
const NOT_SUBJECT = new Set(
  'how what why when where which who do does did is are was were can could should the a an of in on to and make makes made take'.split(
    ' ',
  ),
);

/** The follow-up with its last pronoun replaced by the first content word of the first question of the conversation. */
export function rewriteFollowUp(user: string): string {
  const follow = field(user, 'Follow-up question');
  const first = /^User: (.*)$/m.exec(user)?.[1] ?? '';
  const subject = (first.toLowerCase().match(/[a-z]+/g) ?? []).find((w) => !NOT_SUBJECT.has(w));
  return subject && PRONOUN.test(follow) ? follow.replace(PRONOUN, subject) : follow;
}
