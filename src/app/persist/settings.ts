// The user's tuning, persisted in localStorage. Stored values are untrusted
// (older versions, hand edits, other tabs): every field is validated on its own
// and a bad one falls back to its default without losing the others.
import { DEFAULT_CRAG_SETTINGS, STRIP_POOLS, type CragSettings, type NoEvidencePolicy } from '../../core/crag/defaults';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../core/defaults';
import type { CritiqueSource } from '../../core/ports';
import { FINAL_PICKS } from '../../core/settings';
import type { DecodeSettings, RankSettings, RetrievalMode } from '../../core/types';
import type { IndexChoice } from '../../vector/vector-index';
import type { SearchMode } from '../../core/fusion';
import { DEFAULT_RETRIEVAL, type Reranker, type RetrievalSettings } from '../../core/retrieval-settings';
import { CATALOGUE, DEFAULT_MODEL_ID, type CustomModel } from '../../generator/catalogue';
import { CUSTOM_MODEL_KEY, sanitizeCustomModel } from './custom-model';
import { defaultEngineChoice, sanitizeEngineChoice, type EngineChoice } from './engine-choice';

export type Theme = 'system' | 'light' | 'dark';

/** Settings shown for this visit only, never saved: an embedding host's theme, the engine the page's address names. */
export type VisitSettings = Partial<{ theme: Theme; engine: EngineChoice }>;

/** The Self-CRAG settings a user tunes; the rest of CragSettings keeps the core's defaults. */
export type CragChoice = Pick<
  CragSettings,
  'upper' | 'lower' | 'stripThreshold' | 'noEvidence' | 'externalEnabled' | 'stripPool' | 'sentencesPerStrip'
>;

export interface AppSettings {
  decode: DecodeSettings;
  rank: RankSettings;
  /** Self-CRAG: evaluate each retrieval and correct it (refine, re-search) before writing. */
  corrective: boolean;
  crag: CragChoice;
  /** The library's vector index ('auto': flat while small, compact once large); the library opens with it, so a change takes effect on reload. */
  indexKind: IndexChoice;
  /** How passages are found: words (BM25), meaning (embeddings) or both fused; and whether the cross-encoder re-ranks them. */
  retrieval: RetrievalSettings;
  /** Catalogue id of the generator model, or 'custom' for `customModel`. */
  model: string;
  /** The user's own compiled model, kept even while a catalogue model is chosen. */
  customModel: CustomModel | null;
  /** Which engine writes answers and the CPU engine's GGUF model (a link may override it for one visit, never stored). */
  engine: EngineChoice;
  /** Sampling temperature; 0 decodes greedily with the fixed seed, so the same question gives the same tree. */
  temperature: number;
  theme: Theme;
  /** Keep each added file beside its document, for the source viewer (off: the viewer shows the extracted text). */
  keepOriginals: boolean;
  /** The visitor chose evidence-only mode: questions return passages, no model writes, until they leave it. */
  evidenceOnly: boolean;
}

/** What a new decode depends on: the core's decode settings plus the corrective switch. */
export type DecodeKey =
  | keyof DecodeSettings
  | 'corrective'
  | 'temperature'
  | 'search'
  | 'rerank'
  | 'reranker'
  | CragKey;
export type CragKey = `crag.${keyof CragChoice}`;

export const SETTINGS_KEY = 'selfrag.settings';
export const SETTINGS_VERSION = 1;

/** Slider ranges; also the bounds a stored or linked value must respect. */
export const RANGES = {
  weight: { min: 0, max: 3, step: 0.1 },
  seq: { min: 0, max: 2, step: 0.1 },
  threshold: { min: 0, max: 1, step: 0.05 },
  beamWidth: { min: 1, max: 6, step: 1 },
  maxDepth: { min: 1, max: 12, step: 1 },
  passagesPerStep: { min: 1, max: 10, step: 1 },
  blend: { min: 0, max: 1, step: 0.05 },
  relevanceGate: { min: 0, max: 1, step: 0.05 },
  maxCandidates: { min: 0, max: 60, step: 1 },
  cragThreshold: { min: 0, max: 1, step: 0.01 },
  sentencesPerStrip: { min: 1, max: 5, step: 1 },
  temperature: { min: 0, max: 2, step: 0.1 },
} as const;

const MODES: readonly RetrievalMode[] = ['adaptive', 'always', 'never'];
const SOURCES: readonly CritiqueSource[] = ['auto', 'generator', 'evaluator', 'blend'];
const THEMES: readonly Theme[] = ['system', 'light', 'dark'];
const MODELS: readonly string[] = CATALOGUE.map((m) => m.id);
const NO_EVIDENCE: readonly NoEvidencePolicy[] = ['answer-without-retrieval', 'abstain'];
const INDEX_KINDS: readonly IndexChoice[] = ['auto', 'flat', 'voy', 'compact'];
export const SEARCH_MODES: readonly SearchMode[] = ['words', 'meaning', 'both'];
export const RERANKERS: readonly Reranker[] = ['cross-encoder', 'generator'];

export function defaultCrag(): CragChoice {
  const { upper, lower, stripThreshold, noEvidence, externalEnabled, stripPool, sentencesPerStrip } =
    DEFAULT_CRAG_SETTINGS;
  return { upper, lower, stripThreshold, noEvidence, externalEnabled, stripPool, sentencesPerStrip };
}

/** Why a CRAG choice cannot work, or null. */
export function cragProblem(c: CragChoice): string | null {
  if (c.lower > c.upper) {
    return `The lower threshold (${c.lower}) must not be above the upper threshold (${c.upper}): a retrieval cannot be both Correct and Incorrect.`;
  }
  return null;
}

export function defaultSettings(): AppSettings {
  return {
    decode: { ...DEFAULT_DECODE_SETTINGS },
    rank: { ...DEFAULT_RANK_SETTINGS, weights: { ...DEFAULT_RANK_SETTINGS.weights } },
    corrective: false,
    crag: defaultCrag(),
    indexKind: 'auto',
    retrieval: { ...DEFAULT_RETRIEVAL },
    model: DEFAULT_MODEL_ID,
    customModel: null,
    engine: defaultEngineChoice(),
    temperature: 0,
    theme: 'system',
    keepOriginals: true,
    evidenceOnly: false,
  };
}

function num(v: unknown, fallback: number, range: { min: number; max: number }, integer = false): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
  if (integer && !Number.isInteger(n)) return fallback;
  return n < range.min || n > range.max ? fallback : n;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], fallback: T): T {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
}

function bool(v: unknown, fallback: boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return fallback;
}

function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Field-by-field validation of anything that claims to be settings; `pageUrl` decides which custom model URLs are same-origin. */
export function sanitizeSettings(
  raw: unknown,
  base: AppSettings = defaultSettings(),
  pageUrl: string | undefined = globalThis.location?.href,
): AppSettings {
  const r = obj(raw);
  const d = obj(r.decode);
  const k = obj(r.rank);
  const w = obj(k.weights);
  const bd = base.decode;
  const bw = base.rank.weights;
  const c = obj(r.crag);
  const ret = obj(r.retrieval);
  const bc = base.crag;
  let crag: CragChoice = {
    upper: num(c.upper, bc.upper, RANGES.cragThreshold),
    lower: num(c.lower, bc.lower, RANGES.cragThreshold),
    stripThreshold: num(c.stripThreshold, bc.stripThreshold, RANGES.cragThreshold),
    noEvidence: oneOf(c.noEvidence, NO_EVIDENCE, bc.noEvidence),
    externalEnabled: bool(c.externalEnabled, bc.externalEnabled),
    stripPool: oneOf(c.stripPool, STRIP_POOLS, bc.stripPool ?? DEFAULT_CRAG_SETTINGS.stripPool),
    sentencesPerStrip: num(
      c.sentencesPerStrip,
      bc.sentencesPerStrip ?? DEFAULT_CRAG_SETTINGS.sentencesPerStrip,
      RANGES.sentencesPerStrip,
      true,
    ),
  };
  // Each threshold may be fine alone and the pair still contradict: keep the base pair then.
  if (cragProblem(crag)) crag = { ...crag, upper: bc.upper, lower: bc.lower };
  if (cragProblem(crag)) crag = { ...crag, upper: DEFAULT_CRAG_SETTINGS.upper, lower: DEFAULT_CRAG_SETTINGS.lower };
  const customModel = r.customModel === undefined ? base.customModel : sanitizeCustomModel(r.customModel, pageUrl);
  let model = oneOf(r.model, [...MODELS, CUSTOM_MODEL_KEY], base.model);
  // 'custom' without a usable custom model would leave nothing to load.
  if (model === CUSTOM_MODEL_KEY && !customModel)
    model = base.model === CUSTOM_MODEL_KEY ? DEFAULT_MODEL_ID : base.model;
  return {
    decode: {
      mode: oneOf(d.mode, MODES, bd.mode),
      threshold: num(d.threshold, bd.threshold, RANGES.threshold),
      beamWidth: num(d.beamWidth, bd.beamWidth, RANGES.beamWidth, true),
      maxDepth: num(d.maxDepth, bd.maxDepth, RANGES.maxDepth, true),
      passagesPerStep: num(d.passagesPerStep, bd.passagesPerStep, RANGES.passagesPerStep, true),
      critiqueSource: oneOf(d.critiqueSource, SOURCES, bd.critiqueSource),
      blend: num(d.blend, bd.blend, RANGES.blend),
      relevanceGate: num(d.relevanceGate, bd.relevanceGate ?? 0, RANGES.relevanceGate),
      stopAtFirstAnswer: bool(d.stopAtFirstAnswer, bd.stopAtFirstAnswer ?? false),
      maxCandidates: num(d.maxCandidates, bd.maxCandidates ?? 0, RANGES.maxCandidates, true),
    },
    rank: {
      weights: {
        rel: num(w.rel, bw.rel, RANGES.weight),
        sup: num(w.sup, bw.sup, RANGES.weight),
        use: num(w.use, bw.use, RANGES.weight),
        seq: num(w.seq, bw.seq, RANGES.seq),
      },
      hardConstraints: bool(k.hardConstraints, base.rank.hardConstraints),
      finalPick: oneOf(k.finalPick, FINAL_PICKS, base.rank.finalPick ?? 'any-finished'),
    },
    corrective: bool(r.corrective, base.corrective),
    crag,
    indexKind: oneOf(r.indexKind, INDEX_KINDS, base.indexKind),
    retrieval: {
      search: oneOf(ret.search, SEARCH_MODES, base.retrieval.search),
      rerank: bool(ret.rerank, base.retrieval.rerank),
      reranker: oneOf(ret.reranker, RERANKERS, base.retrieval.reranker ?? 'cross-encoder'),
    },
    model,
    customModel,
    engine: r.engine === undefined ? base.engine : sanitizeEngineChoice(r.engine, base.engine, pageUrl),
    temperature: num(r.temperature, base.temperature, RANGES.temperature),
    theme: oneOf(r.theme, THEMES, base.theme),
    keepOriginals: bool(r.keepOriginals, base.keepOriginals),
    evidenceOnly: bool(r.evidenceOnly, base.evidenceOnly),
  };
}

export function loadSettings(storage: Pick<Storage, 'getItem'> | undefined): AppSettings {
  const fallback = defaultSettings();
  if (!storage) return fallback;
  let text: string | null;
  try {
    text = storage.getItem(SETTINGS_KEY);
  } catch {
    return fallback;
  }
  if (!text) return fallback;
  try {
    const parsed = obj(JSON.parse(text));
    // A future or unknown version may mean fields changed meaning: start clean.
    if (parsed.version !== SETTINGS_VERSION) return fallback;
    const settings = sanitizeSettings(parsed.settings, fallback);
    // Saved before 'auto' existed, 'flat' was the default every saved object carried, not a
    // choice: such a save gets the new default (voy and compact were chosen, and are kept).
    if (parsed.auto !== true && settings.indexKind === 'flat') settings.indexKind = 'auto';
    return settings;
  } catch {
    return fallback;
  }
}

export function saveSettings(storage: Pick<Storage, 'setItem'> | undefined, settings: AppSettings): void {
  try {
    storage?.setItem(SETTINGS_KEY, JSON.stringify({ version: SETTINGS_VERSION, auto: true, settings }));
  } catch {
    // Private mode or a full quota: settings still work for this visit.
  }
}

/** Which decode settings differ, for the "needs a new decode" offer. */
type UsedSettings = DecodeSettings & {
  corrective?: boolean;
  crag?: CragChoice;
  temperature?: number;
  search?: SearchMode;
  rerank?: boolean;
  reranker?: Reranker;
};

export function decodeChanges(used: UsedSettings, now: UsedSettings): DecodeKey[] {
  const { crag: usedCrag, ...usedRest } = used;
  const { crag: nowCrag, ...nowRest } = now;
  // Who re-ranks matters only while re-ranking is on in both (turning it on or off is `rerank`); an
  // answer kept from before the choice existed was re-ranked by the cross-encoder.
  const both = used.rerank !== false && now.rerank !== false;
  const judge = (x: UsedSettings) => (both ? (x.reranker ?? 'cross-encoder') : undefined);
  const usedFlat = { ...usedRest, reranker: judge(used) };
  const nowFlat = { ...nowRest, reranker: judge(now) };
  const keys = (Object.keys(nowFlat) as (keyof typeof nowFlat)[]).filter((key) => usedFlat[key] !== nowFlat[key]);
  // CRAG's settings only shaped the answer when the corrector ran, and only matter if it runs again.
  if (!usedCrag || !nowCrag || !used.corrective || !now.corrective) return keys;
  const crag = (Object.keys(nowCrag) as (keyof CragChoice)[])
    .filter((key) => usedCrag[key] !== nowCrag[key])
    .map((key): CragKey => `crag.${key}`);
  return [...keys, ...crag];
}
