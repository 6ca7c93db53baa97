// A labelled retrieval set, generated deterministically: a few hundred passages and
// questions with their gold passage, in four kinds:
//   - identifier: hinges on a rare code that appears in exactly one passage (error codes, part numbers),
//     among many passages worded alike;
//   - name: hinges on a rare person's name;
//   - paraphrase: shares no content word with its passage (checked below), so only meaning can find it;
//   - keyword: an ordinary question that shares words with its passage.
// Used by `npm run bench -- retrieval` and by the integration test of identifier retrieval.
import type { Passage } from '../../src/core/ports';
import { mulberry32 as rng } from '../../src/core/mulberry32';

export type QuestionKind = 'identifier' | 'name' | 'paraphrase' | 'keyword';

export interface LabelledQuestion {
  question: string;
  gold: string;
  kind: QuestionKind;
}

export interface LabelledSet {
  passages: Passage[];
  questions: LabelledQuestion[];
}

const COMPONENTS = [
  'storage service',
  'sync agent',
  'print spooler',
  'billing module',
  'login gateway',
  'backup daemon',
  'search indexer',
  'mail relay',
];
const CONDITIONS = [
  'the disk is full',
  'the network connection drops',
  'a password has expired',
  'the clock on the machine is wrong',
  'two users edit the same file',
  'the configuration file is missing',
  'a certificate is no longer valid',
  'the queue grows too long',
];
const FIXES = [
  'free some space and restart the service',
  'check the cable and try again',
  'ask an administrator to reset the account',
  'set the clock and reload the page',
  'close the file on one machine first',
  'restore the configuration from the last backup',
  'install a new certificate',
  'wait a few minutes and retry',
];
const FIRST = [
  'Ysolde',
  'Tarquin',
  'Oluwaseun',
  'Brynjar',
  'Zephyrine',
  'Kazimierz',
  'Aurelio',
  'Marguerite',
  'Thorvald',
  'Ileana',
  'Perpetua',
  'Ewald',
  'Seraphina',
  'Lysander',
  'Ottoline',
  'Benedek',
  'Radomir',
  'Philippa',
  'Casimir',
  'Wilhelmina',
];
const LAST = [
  'Quennell',
  'Vandersloot',
  'Adeyemi',
  'Haraldsson',
  'Marchetti',
  'Wozniak',
  'Castellanos',
  'Fairweather',
  'Lindqvist',
  'Petrescu',
  'Oyelaran',
  'Drummond',
];
const TEAMS = ['platform', 'design', 'research', 'support', 'security', 'finance', 'logistics', 'education'];
const PROJECTS = [
  'the new billing system',
  'the mobile app',
  'the data warehouse',
  'the onboarding guide',
  'the office move',
  'the customer survey',
];

// Hand-written pairs: the question shares no content word with its passage (checked), then a keyword question that does.
const PARAPHRASES: Array<{ title: string; text: string; paraphrase: string; keyword: string }> = [
  {
    title: 'Ferry timetable',
    text: 'The harbour ferry departs at dawn and returns before dusk every weekday.',
    paraphrase: 'When does the boat leave port in the early morning?',
    keyword: 'When does the harbour ferry depart?',
  },
  {
    title: 'Starter care',
    text: 'A sourdough starter must be fed flour and water daily to keep its yeast alive.',
    paraphrase: 'How often should one nourish a fermented culture so microbes survive?',
    keyword: 'How often must a sourdough starter be fed?',
  },
  {
    title: 'Bee communication',
    text: 'Forager bees perform a waggle dance to show hive mates where nectar can be found.',
    paraphrase: 'How do insects tell their colony about food locations?',
    keyword: 'What dance do forager bees perform?',
  },
  {
    title: 'Tidal bulges',
    text: 'The gravity of the moon raises two bulges of ocean water on opposite sides of the planet.',
    paraphrase: 'Why do seas swell because of our lunar satellite?',
    keyword: 'What does the gravity of the moon raise?',
  },
  {
    title: 'Printing press',
    text: 'Gutenberg combined movable metal type with an oil based ink and a screw press around 1450.',
    paraphrase: 'Which inventor mechanised book production in fifteenth century Mainz?',
    keyword: 'What did Gutenberg combine with movable metal type?',
  },
  {
    title: 'Rust ownership',
    text: 'Every value in Rust has a single owner, and the value is dropped when its owner goes out of scope.',
    paraphrase: 'What happens to memory once a variable leaves its enclosing block?',
    keyword: 'When is a value dropped in Rust?',
  },
  {
    title: 'Photosynthesis',
    text: 'Green leaves turn sunlight, carbon dioxide and water into sugar and release oxygen.',
    paraphrase: 'How do plants make food from light?',
    keyword: 'What do green leaves turn sunlight into?',
  },
  {
    title: 'Volcano warning',
    text: 'Swelling ground and small earthquakes often come before a volcanic eruption.',
    paraphrase: 'What signs precede lava bursting out of a mountain?',
    keyword: 'What comes before a volcanic eruption?',
  },
  {
    title: 'Coffee roasting',
    text: 'Roasting turns green coffee beans brown and develops their aroma through the Maillard reaction.',
    paraphrase: 'What heating step gives espresso its smell?',
    keyword: 'What does roasting do to green coffee beans?',
  },
  {
    title: 'Library fines',
    text: 'Borrowed books returned after the due date cost ten cents for each late day.',
    paraphrase: 'What penalty applies to overdue loans?',
    keyword: 'How much do books returned after the due date cost?',
  },
  {
    title: 'Marathon length',
    text: 'A marathon race covers forty two kilometres, about twenty six miles.',
    paraphrase: 'How far do long distance runners go in that famous event?',
    keyword: 'How many kilometres does a marathon race cover?',
  },
  {
    title: 'Vaccines',
    text: 'Vaccines train the immune system to recognise a germ without causing the disease.',
    paraphrase: 'How do shots prepare our bodies against infections?',
    keyword: 'What do vaccines train?',
  },
  {
    title: 'Glacier retreat',
    text: 'Rising temperatures make glaciers melt faster than snowfall can replace the ice.',
    paraphrase: 'Why are frozen rivers in the mountains shrinking?',
    keyword: 'Why do glaciers melt faster than snowfall replaces the ice?',
  },
  {
    title: 'Compost',
    text: 'Kitchen scraps and dry leaves break down into rich soil when kept damp and turned often.',
    paraphrase: 'How can food waste become garden fertiliser?',
    keyword: 'What do kitchen scraps and dry leaves break down into?',
  },
  {
    title: 'Password advice',
    text: 'A long passphrase of several random words is harder to guess than a short complex password.',
    paraphrase: 'Which login secrets resist attackers best?',
    keyword: 'Why is a long passphrase harder to guess?',
  },
  {
    title: 'Bridge expansion',
    text: 'Steel bridges have expansion joints because metal grows longer in summer heat.',
    paraphrase: 'Why do crossings over rivers include gaps for warm weather?',
    keyword: 'Why do steel bridges have expansion joints?',
  },
  {
    title: 'Owl hunting',
    text: 'Owls hunt at night, locating mice by sound with asymmetrical ears.',
    paraphrase: 'How do nocturnal birds of prey find rodents in darkness?',
    keyword: 'How do owls locate mice at night?',
  },
  {
    title: 'Tea brewing',
    text: 'Green tea tastes bitter when steeped too long or in boiling water.',
    paraphrase: 'What makes a herbal infusion harsh?',
    keyword: 'When does green tea taste bitter?',
  },
  {
    title: 'Solar panels',
    text: 'Photovoltaic cells convert sunlight directly into electric current.',
    paraphrase: 'How do rooftop modules generate power from daylight?',
    keyword: 'What do photovoltaic cells convert sunlight into?',
  },
  {
    title: 'Sleep cycles',
    text: 'Adults pass through several ninety minute sleep cycles each night, dreaming mostly in REM.',
    paraphrase: 'How long are the stages of nightly rest?',
    keyword: 'How long are adult sleep cycles?',
  },
  {
    title: 'Bread rising',
    text: 'Yeast eats sugar in dough and releases gas, which makes the loaf rise.',
    paraphrase: 'Why does a baked good puff up?',
    keyword: 'What makes the loaf rise?',
  },
  {
    title: 'Lighthouse',
    text: 'Lighthouse keepers once trimmed lamp wicks through the night so ships could avoid the rocks.',
    paraphrase: 'What did coastal beacon attendants do after sunset?',
    keyword: 'What did lighthouse keepers trim?',
  },
  {
    title: 'Recycling glass',
    text: 'Glass bottles can be melted and reformed endlessly without losing quality.',
    paraphrase: 'Can jars be remade again and again?',
    keyword: 'Can glass bottles be melted and reformed?',
  },
  {
    title: 'Migration',
    text: 'Arctic terns fly from pole to pole each year, the longest migration of any animal.',
    paraphrase: 'Which seabird travels farthest annually?',
    keyword: 'How far do arctic terns fly each year?',
  },
  {
    title: 'Earthquake scale',
    text: 'The moment magnitude scale measures the energy released by an earthquake.',
    paraphrase: 'How do seismologists rate tremor strength?',
    keyword: 'What does the moment magnitude scale measure?',
  },
  {
    title: 'Chess openings',
    text: 'Controlling the centre squares early gives a chess player more room for their pieces.',
    paraphrase: 'Why should you occupy the middle of the board at the start of a game?',
    keyword: 'Why control the centre squares in chess?',
  },
  {
    title: 'Battery care',
    text: 'Lithium batteries last longer when kept between twenty and eighty percent charge.',
    paraphrase: 'How should phone cells be topped up for long life?',
    keyword: 'How do lithium batteries last longer?',
  },
  {
    title: 'Rainbows',
    text: 'Raindrops split sunlight into colours by refraction, forming a rainbow opposite the sun.',
    paraphrase: 'How does an arc of hues appear after a shower?',
    keyword: 'How do raindrops form a rainbow?',
  },
  {
    title: 'Cheese aging',
    text: 'Hard cheeses are aged for months in cool cellars, where they lose moisture and gain flavour.',
    paraphrase: 'Why do dairy wheels mature underground?',
    keyword: 'Where are hard cheeses aged?',
  },
  {
    title: 'Wind turbines',
    text: 'Turbine blades turn a generator when wind pushes them, producing electricity.',
    paraphrase: 'How do tall rotors make power from breezes?',
    keyword: 'What do turbine blades turn?',
  },
];

// Content words only: function words and question words do not count as sharing.
const FUNCTION = new Set(
  'a an and are as at be by can do does for from how in into is it its of on or our the their to what when where which who why with you your each after one our so once'.split(
    ' ',
  ),
);
export const contentWords = (s: string) =>
  new Set((s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !FUNCTION.has(w)));

function code(r: () => number, i: number): string {
  const L = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const pick = () => L[Math.floor(r() * L.length)]!;
  const digits = String(1000 + ((i * 7919 + Math.floor(r() * 1000)) % 9000));
  return i % 2 === 0 ? `ERR_${pick()}${pick()}_${digits}` : `${pick()}${pick()}-${digits}`;
}

export function labelledSet(): LabelledSet {
  const r = rng(11);
  const passages: Passage[] = [];
  const questions: LabelledQuestion[] = [];
  const add = (docId: string, title: string, text: string): string => {
    const id = `${docId}#0`;
    passages.push({ id, docId, title, text, index: 0 });
    return id;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

  // 160 error-code passages, worded alike: only the code tells them apart.
  const codes = new Set<string>();
  for (let i = 0; codes.size < 160; i++) {
    const c = code(r, i);
    if (codes.has(c)) continue;
    codes.add(c);
    const comp = pick(COMPONENTS);
    const j = Math.floor(r() * CONDITIONS.length);
    const id = add(
      `err-${codes.size}`,
      `Error reference ${Math.ceil(codes.size / 20)}`,
      `Error ${c} is raised by the ${comp} when ${CONDITIONS[j]}. To fix it, ${FIXES[j]}.`,
    );
    if (codes.size % 4 < 2)
      questions.push({
        question: codes.size % 8 < 4 ? `What does ${c} mean?` : `How do I fix error ${c}?`,
        gold: id,
        kind: 'identifier',
      });
  }
  // 120 people, rare names, similar sentences.
  const names = new Set<string>();
  while (names.size < 120) {
    const n = `${pick(FIRST)} ${pick(LAST)}`;
    if (names.has(n)) continue;
    names.add(n);
    const id = add(
      `person-${names.size}`,
      'Staff directory',
      `${n} joined the ${pick(TEAMS)} team in ${2010 + Math.floor(r() * 14)} and now leads work on ${pick(PROJECTS)}.`,
    );
    if (names.size % 3 === 0) questions.push({ question: `Which team did ${n} join?`, gold: id, kind: 'name' });
  }
  // Hand-written passages with a paraphrased and a keyword question each.
  PARAPHRASES.forEach((p, i) => {
    const id = add(`topic-${i}`, p.title, p.text);
    questions.push({ question: p.paraphrase, gold: id, kind: 'paraphrase' });
    questions.push({ question: p.keyword, gold: id, kind: 'keyword' });
  });
  // Distractors on the same topics, so neither words nor meaning find the gold by topic alone.
  const fillers = [
    'Ferries and buses share one ticket in the harbour district.',
    'Flour comes in many kinds, from rye to spelt.',
    'Honey keeps for years in a sealed jar.',
    'Spring tides bring the highest water of the month.',
    'Early printed books are called incunabula.',
    'Borrowing in Rust lets code read a value without taking ownership.',
    'Autumn leaves turn red when chlorophyll breaks down.',
    'Some mountains are extinct volcanoes that will not erupt again.',
    'Decaf coffee still holds a little caffeine.',
    'The library opens late on Thursdays.',
  ];
  for (let i = 0; passages.length < 460; i++)
    add(`filler-${i}`, 'Notes', `${fillers[i % fillers.length]} Note ${i + 1} of the general collection.`);
  const bad: string[] = [];
  for (const q of questions) {
    if (q.kind !== 'paraphrase') continue;
    const gold = passages.find((p) => p.id === q.gold)!;
    const shared = [...contentWords(q.question)].filter((w) => contentWords(`${gold.title} ${gold.text}`).has(w));
    if (shared.length) bad.push(`"${q.question}" shares ${shared.join(', ')}`);
  }
  if (bad.length)
    throw new Error(`paraphrased questions must share no content word with their passage: ${bad.join('; ')}`);
  return { passages, questions };
}
