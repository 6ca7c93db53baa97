// The decode settings: how passages are found, and how candidates are written and critiqued. A
// change needs a new answer (the answer area offers one).
import type { CritiqueSource } from '../../core/ports';
import type { DecodeSettings, RetrievalMode } from '../../core/types';
import type { SearchMode } from '../../core/fusion';
import {
  GENERATOR_RERANK_CANDIDATES,
  RERANK_CANDIDATES,
  type Reranker,
  type RetrievalSettings,
} from '../../core/hybrid';
import { RANGES } from '../../app/persist/settings';
import { RadioGroup } from '../RadioGroup';
import { Slider } from '../Slider';

const SEARCH: { value: SearchMode; label: string }[] = [
  { value: 'both', label: 'Words and meaning (default)' },
  { value: 'meaning', label: 'Meaning only (embeddings)' },
  { value: 'words', label: 'Words only (BM25)' },
];

const RERANKERS: { value: Reranker; label: string }[] = [
  { value: 'cross-encoder', label: `The cross-encoder, best ${RERANK_CANDIDATES} (default)` },
  { value: 'generator', label: `The loaded model, best ${GENERATOR_RERANK_CANDIDATES}` },
];

/** What the loaded model's re-rank costs and buys (measured: docs/retrieval.md). */
export const RERANKER_WHY = `The loaded model is asked whether each of the best ${GENERATOR_RERANK_CANDIDATES} answers the question: one turn of the model for each, so answers take longer, most on a CPU; worth it with a model of 1.5B or more. Evidence-only mode and a native Self-RAG model re-rank with the cross-encoder.`;

const SOURCES: { value: CritiqueSource; label: string }[] = [
  { value: 'auto', label: 'Automatic (default)' },
  { value: 'generator', label: "Generator's own tokens" },
  { value: 'evaluator', label: 'Evaluator models' },
  { value: 'blend', label: 'Blend of both' },
];

/** Why the critiques come from where they do (measured: docs/benchmarks-answer.md). */
export const CRITIQUE_SOURCE_WHY =
  "Automatic lets the evaluator's models grade relevance and support, because small prompted models grade their own work barely better than chance, and keeps a native Self-RAG model's own grades, which it was trained to give.";

/** One decode setting's change, as a new DecodeSettings. */
const field =
  (decode: DecodeSettings, onDecode: (d: DecodeSettings) => void) =>
  <K extends keyof DecodeSettings>(key: K) =>
  (v: DecodeSettings[K]) =>
    onDecode({ ...decode, [key]: v });

/** When to retrieve, and how passages are found. */
export function RetrievalFields(props: {
  decode: DecodeSettings;
  onDecode: (d: DecodeSettings) => void;
  retrieval: RetrievalSettings;
  onRetrieval: (r: RetrievalSettings) => void;
}) {
  const { decode, retrieval } = props;
  const d = field(decode, props.onDecode);
  return (
    <>
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
        value={retrieval.search}
        onChange={(search) => props.onRetrieval({ ...retrieval, search })}
        testIdPrefix="search-"
      />
      <label className="check">
        <input
          type="checkbox"
          checked={retrieval.rerank}
          data-testid="rerank"
          onChange={(e) => props.onRetrieval({ ...retrieval, rerank: e.target.checked })}
        />
        Re-rank the best candidates
      </label>
      {retrieval.rerank && (
        <>
          <RadioGroup
            legend="Re-rank with"
            options={RERANKERS}
            value={retrieval.reranker ?? 'cross-encoder'}
            onChange={(reranker) => props.onRetrieval({ ...retrieval, reranker })}
            testIdPrefix="reranker-"
          />
          <p className="muted hint">{RERANKER_WHY}</p>
        </>
      )}
    </>
  );
}

/** How many candidates are written at each step, who critiques them, and when the search stops. */
export function CandidateFields(props: {
  decode: DecodeSettings;
  onDecode: (d: DecodeSettings) => void;
  corrective: boolean;
  onCorrective: (on: boolean) => void;
}) {
  const { decode } = props;
  const d = field(decode, props.onDecode);
  return (
    <>
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
    </>
  );
}
