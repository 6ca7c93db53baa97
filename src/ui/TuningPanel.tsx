// Sliders for the critique weights (re-rank at once, no model call) and the
// decode settings (need a new decode, offered by the answer area).
import type { CritiqueSource } from '../core/ports';
import type { DecodeSettings, FinalPick, RankSettings, RetrievalMode } from '../core/types';
import type { IndexChoice } from '../vector/vector-index';
import { RANGES, type CragChoice } from '../app/persist/settings';
import type { SearchMode } from '../core/fusion';
import type { RetrievalSettings } from '../core/hybrid';
import { CragSettingsFields } from './CragSettingsFields';
import { IndexSetting } from './IndexSetting';
import { RadioGroup } from './RadioGroup';
import { Slider } from './Slider';

const SEARCH: { value: SearchMode; label: string }[] = [
  { value: 'both', label: 'Words and meaning (default)' },
  { value: 'meaning', label: 'Meaning only (embeddings)' },
  { value: 'words', label: 'Words only (BM25)' },
];

const SOURCES: { value: CritiqueSource; label: string }[] = [
  { value: 'auto', label: 'Automatic (default)' },
  { value: 'generator', label: "Generator's own tokens" },
  { value: 'evaluator', label: 'Evaluator models' },
  { value: 'blend', label: 'Blend of both' },
];

/** Why the critiques come from where they do (measured: docs/benchmarks-answer.md). */
export const CRITIQUE_SOURCE_WHY =
  "Automatic lets the evaluator's models grade relevance and support, because small prompted models grade their own work barely better than chance, and keeps a native Self-RAG model's own grades, which it was trained to give.";

const FINAL_PICK_OPTIONS: { value: FinalPick; label: string }[] = [
  { value: 'any-finished', label: 'Best finished path (any length)' },
  { value: 'deepest-level', label: 'Best of the deepest level (reference code)' },
];

export function TuningPanel(props: {
  rank: RankSettings;
  decode: DecodeSettings;
  onRank: (r: RankSettings) => void;
  onDecode: (d: DecodeSettings) => void;
  corrective: boolean;
  /** How long the last weight change took to re-rank, when there was an answer to re-rank. */
  lastRerankMs: number | null;
  onCorrective: (on: boolean) => void;
  crag: CragChoice;
  /** Returns why the settings cannot work, or null once applied. */
  onCrag: (c: CragChoice) => string | null;
  indexKind: IndexChoice;
  indexKindInUse: IndexChoice;
  onIndexKind: (k: IndexChoice) => void;
  retrieval: RetrievalSettings;
  onRetrieval: (r: RetrievalSettings) => void;
  onReload: () => void;
  onReset: () => void;
}) {
  const { rank, decode } = props;
  const w = (key: keyof RankSettings['weights']) => (v: number) =>
    props.onRank({ ...rank, weights: { ...rank.weights, [key]: v } });
  const d =
    <K extends keyof DecodeSettings>(key: K) =>
    (v: DecodeSettings[K]) =>
      props.onDecode({ ...decode, [key]: v });
  return (
    <aside className="panel tuning" aria-labelledby="tuning-heading">
      <h2 id="tuning-heading">Tuning</h2>
      <fieldset>
        <legend>Critique weights (re-rank instantly)</legend>
        <Slider
          label="ISREL weight"
          value={rank.weights.rel}
          range={RANGES.weight}
          onChange={w('rel')}
          testId="w-rel"
        />
        <Slider
          label="ISSUP weight"
          value={rank.weights.sup}
          range={RANGES.weight}
          onChange={w('sup')}
          testId="w-sup"
        />
        <Slider
          label="ISUSE weight"
          value={rank.weights.use}
          range={RANGES.weight}
          onChange={w('use')}
          testId="w-use"
        />
        <Slider
          label="Sequence likelihood weight"
          value={rank.weights.seq}
          range={RANGES.seq}
          onChange={w('seq')}
          testId="w-seq"
        />
        <label className="check">
          <input
            type="checkbox"
            checked={rank.hardConstraints}
            data-testid="hard"
            onChange={(e) => props.onRank({ ...rank, hardConstraints: e.target.checked })}
          />
          Hard constraint: drop unsupported candidates
        </label>
        <RadioGroup
          legend="Answer chosen from"
          options={FINAL_PICK_OPTIONS}
          value={rank.finalPick ?? 'any-finished'}
          onChange={(finalPick) => props.onRank({ ...rank, finalPick })}
          testIdPrefix="pick-"
        />
        {props.lastRerankMs !== null && (
          <p className="muted hint" role="status" data-testid="rerank-time">
            Re-ranked in {props.lastRerankMs < 1 ? '<1' : Math.round(props.lastRerankMs)} ms, no model call.
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend>Decoding (needs a new answer)</legend>
        <div className="select">
          <label htmlFor="mode">Retrieval</label>
          <select id="mode" value={decode.mode} onChange={(e) => d('mode')(e.target.value as RetrievalMode)}>
            <option value="adaptive">Adaptive (threshold δ)</option>
            <option value="always">Always retrieve</option>
            <option value="never">Never retrieve</option>
          </select>
        </div>
        <Slider
          label="Retrieval threshold δ"
          value={decode.threshold}
          range={RANGES.threshold}
          onChange={d('threshold')}
          testId="threshold"
          hint="Retrieve when p(Retrieval) is above δ."
        />
        <RadioGroup
          legend="Find passages by"
          options={SEARCH}
          value={props.retrieval.search}
          onChange={(search) => props.onRetrieval({ ...props.retrieval, search })}
          testIdPrefix="search-"
        />
        <label className="check">
          <input
            type="checkbox"
            checked={props.retrieval.rerank}
            data-testid="rerank"
            onChange={(e) => props.onRetrieval({ ...props.retrieval, rerank: e.target.checked })}
          />
          Re-rank the best 20 with the cross-encoder
        </label>
        <Slider
          label="Beam width"
          value={decode.beamWidth}
          range={RANGES.beamWidth}
          onChange={d('beamWidth')}
          testId="beam"
        />
        <Slider
          label="Passages per step"
          value={decode.passagesPerStep}
          range={RANGES.passagesPerStep}
          onChange={d('passagesPerStep')}
          testId="k"
        />
        <Slider
          label="Max segments"
          value={decode.maxDepth}
          range={RANGES.maxDepth}
          onChange={d('maxDepth')}
          testId="depth"
        />
        <RadioGroup
          legend="Critique source"
          options={SOURCES}
          value={decode.critiqueSource}
          onChange={d('critiqueSource')}
          testIdPrefix="source-"
        />
        <p className="muted hint" data-testid="critique-source-why">
          {CRITIQUE_SOURCE_WHY}
        </p>
        <Slider
          label="Relevance gate"
          value={decode.relevanceGate ?? 0}
          range={RANGES.relevanceGate}
          onChange={d('relevanceGate')}
          testId="relevance-gate"
          hint="Skip writing from passages the evaluator rates below this (0: off); the best passage is always used."
        />
        <label className="check">
          <input
            type="checkbox"
            checked={decode.stopAtFirstAnswer === true}
            data-testid="stop-at-first-answer"
            onChange={(e) => d('stopAtFirstAnswer')(e.target.checked)}
          />
          Stop when the best path has finished the answer
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={props.corrective}
            data-testid="corrective"
            onChange={(e) => props.onCorrective(e.target.checked)}
          />
          Corrective retrieval (Self-CRAG): check each retrieval, refine or search again
        </label>
        {decode.critiqueSource === 'blend' && (
          <Slider
            label="Evaluator share in the blend"
            value={decode.blend}
            range={RANGES.blend}
            onChange={d('blend')}
            testId="blend"
          />
        )}
      </fieldset>
      <CragSettingsFields crag={props.crag} corrective={props.corrective} onCrag={props.onCrag} />
      <IndexSetting
        kind={props.indexKind}
        inUse={props.indexKindInUse}
        onKind={props.onIndexKind}
        onReload={props.onReload}
      />
      <button type="button" onClick={props.onReset}>
        Reset to defaults
      </button>
    </aside>
  );
}
