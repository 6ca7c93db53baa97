// Whether a question depends on the conversation before it. Searched alone, a follow-up
// ("And how do I close it?", "what about -R?", "why?") finds whatever shares its few words;
// searched with the earlier questions, a new subject ("How do I pass an error up to the
// caller?") finds the old subject's passages. So each question is judged from its own words:
// a follow-up leans on what came before (a pronoun with nothing to point at, a leading "and"
// or "what about", no subject of its own); a question with a subject of its own stands alone;
// between the two the call is "unsure", and both readings are searched (search-plan.ts).
// English only: a question in another language is judged by its length alone.

export type QuestionDependence = 'standalone' | 'follow-up' | 'unsure';

export interface DependenceCall {
  dependence: QuestionDependence;
  /** Why, in words, for the why-panel and the tests. */
  reason: string;
}

/** Words that carry no subject of their own: question words, auxiliaries, light verbs, fillers. */
const FILLER = new Set(
  (
    'a an the of in on at to for with from by as about into onto over under than and or but not no yes ' +
    'what which who whom whose when where why how is are was were be been being am do does did done doing ' +
    'can could should would will shall may might must have has had having i me my mine we us our you your ' +
    'he him his she her please tell explain show give say says said know mean means meant use used using ' +
    'way ways get gets got make makes made work works happen happens happened go goes going need needs want ' +
    'thing things something anything everything some any all each every more less very much many most ' +
    'just really also too else again instead still even only other another then there here so if example ' +
    'examples kind sort lot better best difference different same case cases ok okay like well now'
  ).split(' '),
);

/** Words that point back at something said before when the question itself names nothing. */
const ANAPHORA = new Set(
  'it its itself they them their theirs themselves this that these those such former latter'.split(' '),
);

/** A question that opens by continuing the previous one. */
const LEAD =
  /^(?:and|but|also|so|or|plus|then|what about|how about|what if|same (?:for|with)|and if|and what|and how|and why|why not|how come)\b/i;
/** A question that closes by referring back ("…, then?", "… too?", "… instead?", "… as well?"). */
const TAIL = /(?:,\s*then|\btoo|\binstead|\bas well|\bthough)\s*[?.!]*\s*$/i;
/** "it" with nothing to point at: "is it possible to…", "it's called…", "is it safe to…". */
const DUMMY_IT =
  /\bit(?:'s|’s|\s+is|\s+was)\s+(?:\w+\s+)?(?:to|that|possible|safe|ok|okay|true|better|best|worth|necessary|required|called|bad|wrong|a good idea)\b/gi;
/** "one" standing for a noun said before: "the third one", "which one", "the other ones". */
const PRO_ONE =
  /\b(?:the|this|that|which|other|another|first|second|third|last|next|same|new|old)\s+(?:\w+\s+)?ones?\b/i;

/** Words of a question: runs of letters and digits, with identifiers (`-R`, `--release`, `Rc<T>`) kept whole. */
function words(text: string): string[] {
  return text.toLowerCase().match(/(?:--?)?[\p{L}\p{N}][\p{L}\p{N}_'’.:<>+#-]*/gu) ?? [];
}

const bare = (w: string) => w.replace(/['’]s$/, '').replace(/[.:]+$/, '');

/** The words of a question that name a subject: not fillers, not pronouns. */
export function contentWords(question: string): string[] {
  return words(question)
    .map(bare)
    .filter((w) => !FILLER.has(w) && !ANAPHORA.has(w) && !FILLER.has(w.replace(/s$/, '')));
}

/** Pronouns and demonstratives in the question that point outside it. */
function anaphora(question: string): string[] {
  const q = question.replace(DUMMY_IT, ' ');
  const found = words(q)
    .map(bare)
    .filter((w) => ANAPHORA.has(w));
  if (PRO_ONE.test(q)) found.push('one');
  return found;
}

/**
 * Whether `question` depends on the earlier questions of its thread (`earlier`, oldest first).
 * The first question of a thread stands alone.
 */
export function questionDependence(question: string, earlier: readonly string[]): DependenceCall {
  const q = question.trim();
  if (!earlier.some((e) => e.trim())) return { dependence: 'standalone', reason: 'the first question of the thread' };
  const content = contentWords(q);
  const pointers = anaphora(q);
  const lead = LEAD.exec(q)?.[0];
  const tail = TAIL.exec(q)?.[0]
    ?.replace(/[?.!\s,]+/g, ' ')
    .trim();
  const marker = lead ? `opens with "${lead.toLowerCase()}"` : tail ? `ends with "${tail.toLowerCase()}"` : null;
  if (content.length === 0)
    return { dependence: 'follow-up', reason: 'it names no subject of its own' + (marker ? ` and ${marker}` : '') };
  if (marker)
    return content.length <= 2
      ? { dependence: 'follow-up', reason: `it ${marker}` }
      : { dependence: 'unsure', reason: `it ${marker} but names its own subject (${content.slice(0, 4).join(', ')})` };
  if (pointers.length > 0) {
    const said = `"${pointers[0]}" points at something said before`;
    if (content.length <= 2) return { dependence: 'follow-up', reason: said };
    if (content.length === 3)
      return { dependence: 'unsure', reason: `${said}, but it names its own subject (${content.join(', ')})` };
  }
  if (content.length === 1) return { dependence: 'unsure', reason: `it names one thing only (${content[0]})` };
  return { dependence: 'standalone', reason: `it names its own subject (${content.slice(0, 4).join(', ')})` };
}
