// What the engine double writes when no test scripted it (the e2e build): the
// unused passage sentence closest to the question, sometimes reworded or padded
// the way small models do, with reflection probabilities that judge what was
// actually written. Everything is derived from word overlap, so answers and
// rankings are reproducible and the critique weights have something to trade:
// - relevance: share of the question's content words found in the passage;
// - support: share of the segment's content words found in the passage, so a
//   reworded sentence is partly supported and a padded one less so;
// - utility: share of the question's content words the segment mentions.
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
  for (let r = 1; r <= 5; r++) w[` ${r}`] = Math.exp(-Math.abs(r - centre) * 1.5);
  return w;
}

export function defaultReply(call: ScriptCall): ScriptedReply {
  if (call.kind === 'completion') return nativeReply(call.prompt);
  // The follow-up rewrite (src/core/conversation/rewrite.ts): what a small model does at best.
  if (call.user.includes('\nFollow-up question: ')) return { text: rewriteFollowUp(call.user) };
  const question = field(call.user, 'Question');
  const soFar = field(call.user, 'Answer so far');
  const hasSoFar = soFar !== '' && soFar !== '(nothing yet)';
  if (!call.grammar) {
    // Free instruction (query rewrite, RAGAS statements): answer with the question's own content words.
    const last = call.user.trim().split('\n').filter(Boolean).pop() ?? '';
    return { text: question || last.slice(0, 200) };
  }
  if (call.grammar.includes('decision ::=')) {
    return { slots: { decision: twoWay(hasSoFar ? 0.55 : 0.85, ' yes', ' no') } };
  }
  const passageAt = call.user.indexOf('\nPassage: ');
  if (passageAt < 0) {
    return {
      text: 'The documents were not consulted for this part, so it is not grounded in them.',
      slots: { use: utility(0.2), next: { ' retrieve': 0.6, ' continue': 0.1, ' done': 0.3 } },
    };
  }
  const passage = call.user.slice(passageAt + '\nPassage: '.length);
  // Markdown headings are titles, not sentences of the answer.
  const body = passage.slice(passage.indexOf('\n') + 1).replace(/^#+ .*$/gm, '');
  const all = sentences(body);
  const said = soFar.toLowerCase();
  const fresh = all.filter((s) => !said.includes(s.toLowerCase()));
  // The unused sentence that shares most words with the question (the earliest on a tie).
  const best = fresh.reduce<string | undefined>(
    (a, s) => (a === undefined || overlap(question, s) > overlap(question, a) ? s : a),
    undefined,
  );
  const text = write(best ?? all[all.length - 1] ?? body.slice(0, 200), question, body);
  const sup = overlap(text, body);
  const moreLeft = fresh.length > 1 && !hasSoFar;
  return {
    text,
    slots: {
      rel: twoWay(0.1 + 0.85 * overlap(question, passage), ' relevant', ' irrelevant'),
      sup: support(sup),
      use: utility(overlap(question, text)),
      next: moreLeft
        ? { ' retrieve': 0.5, ' continue': 0.2, ' done': 0.3 }
        : { ' retrieve': 0.15, ' continue': 0.1, ' done': 0.75 },
    },
  };
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
  return { ' fully': 0.02 + s * s, ' partially': 0.02 + 2 * s * (1 - s), ' no': 0.02 + (1 - s) * (1 - s) };
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
