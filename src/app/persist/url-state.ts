// A question and its settings carried in the URL so an answer can be shared as
// a link. Linked values are untrusted and go through the same validation as
// stored ones; anything invalid keeps the reader's own setting.
import { sanitizeSettings, type AppSettings, type VisitSettings } from './settings';
import { engineInput } from './engine-choice';

const DECODE_PARAMS = {
  mode: 'mode',
  threshold: 'delta',
  beamWidth: 'beam',
  maxDepth: 'depth',
  passagesPerStep: 'k',
  critiqueSource: 'src',
  blend: 'blend',
} as const;
const WEIGHT_PARAMS = { rel: 'wrel', sup: 'wsup', use: 'wuse', seq: 'wseq' } as const;
// The external-source switch is deliberately not linkable: opening someone's link must never
// make the reader's page send their questions to an outside service.
const CRAG_PARAMS = {
  upper: 'cup',
  lower: 'clow',
  stripThreshold: 'cstrip',
  noEvidence: 'cnoev',
  stripPool: 'cpool',
  sentencesPerStrip: 'csent',
} as const;
const NO_EVIDENCE_PARAM = { 'answer-without-retrieval': 'answer', abstain: 'abstain' } as const;
const MAX_QUESTION = 2000;

export interface UrlState {
  question: string | null;
  /** What the question was searched by, where that was not the question as typed (a follow-up's standalone form). */
  searched: string | null;
  settings: AppSettings;
  /** What the address sets for this visit only, never saved: the engine and GGUF model it names. */
  visit: VisitSettings;
}

export function readUrlState(search: string, base: AppSettings): UrlState {
  const p = new URLSearchParams(search);
  const decode: Record<string, string> = {};
  for (const [key, param] of Object.entries(DECODE_PARAMS)) {
    const v = p.get(param);
    if (v !== null) decode[key] = v;
  }
  const weights: Record<string, string> = {};
  for (const [key, param] of Object.entries(WEIGHT_PARAMS)) {
    const v = p.get(param);
    if (v !== null) weights[key] = v;
  }
  const crag: Record<string, string> = {};
  for (const [key, param] of Object.entries(CRAG_PARAMS)) {
    const v = p.get(param);
    if (v === null) continue;
    crag[key] =
      key === 'noEvidence'
        ? (Object.keys(NO_EVIDENCE_PARAM).find((k) => NO_EVIDENCE_PARAM[k as keyof typeof NO_EVIDENCE_PARAM] === v) ??
          '')
        : v;
  }
  const hard = p.get('hard');
  const pick = p.get('pick');
  const searchMode = p.get('search');
  const rerank = p.get('rerank');
  const cragOn = p.get('crag');
  const raw = {
    decode: { ...base.decode, ...decode },
    rank: {
      weights: { ...base.rank.weights, ...weights },
      hardConstraints: hard ?? base.rank.hardConstraints,
      finalPick: pick ?? base.rank.finalPick,
    },
    corrective: cragOn ?? base.corrective,
    crag: { ...base.crag, ...crag, externalEnabled: base.crag.externalEnabled },
    indexKind: base.indexKind,
    // `rerank`: 0 none, 1 the cross-encoder, `generator` the loaded model (docs/user-guide.md).
    retrieval: {
      search: searchMode ?? base.retrieval.search,
      rerank: rerank === 'generator' ? true : (rerank ?? base.retrieval.rerank),
      reranker:
        rerank === 'generator'
          ? 'generator'
          : rerank === '1' || rerank === 'true'
            ? 'cross-encoder'
            : base.retrieval.reranker,
    },
    model: base.model,
    theme: base.theme,
  };
  const q = p.get('q');
  const question = q?.trim() ? q.trim().slice(0, MAX_QUESTION) : null;
  const sq = question ? p.get('sq')?.trim().slice(0, MAX_QUESTION) : null;
  const searched = sq && sq !== question ? sq : null;
  const visit: VisitSettings = p.has('engine') || p.has('gguf') ? { engine: engineInput(search, base.engine) } : {};
  return { question, searched, settings: sanitizeSettings(raw, base), visit };
}

/** The query string for sharing; other parameters (e.g. embedOrigin) are kept. */
export function writeUrlState(
  search: string,
  question: string | null,
  s: AppSettings,
  searched: string | null = null,
): string {
  const p = new URLSearchParams(search);
  if (question) p.set('q', question);
  else p.delete('q');
  if (question && searched && searched !== question) p.set('sq', searched);
  else p.delete('sq');
  for (const [key, param] of Object.entries(DECODE_PARAMS)) {
    p.set(param, String(s.decode[key as keyof typeof DECODE_PARAMS]));
  }
  for (const [key, param] of Object.entries(WEIGHT_PARAMS)) {
    p.set(param, String(s.rank.weights[key as keyof typeof WEIGHT_PARAMS]));
  }
  p.set('hard', s.rank.hardConstraints ? '1' : '0');
  p.set('pick', s.rank.finalPick ?? 'any-finished');
  p.set('crag', s.corrective ? '1' : '0');
  p.set('search', s.retrieval.search);
  p.set('rerank', !s.retrieval.rerank ? '0' : s.retrieval.reranker === 'generator' ? 'generator' : '1');
  for (const [key, param] of Object.entries(CRAG_PARAMS)) {
    const v = s.crag[key as keyof typeof CRAG_PARAMS];
    p.set(param, key === 'noEvidence' ? NO_EVIDENCE_PARAM[v as keyof typeof NO_EVIDENCE_PARAM] : String(v));
  }
  return `?${p.toString()}`;
}
