// The tuning panel: critique weights (re-rank at once, no model call), the decode settings (need a
// new decode, offered by the answer area), Self-CRAG's settings, the vector index, and when the
// answer-quality check runs. Every change
// is one settings change through the controller (`onChange`).
import type { IndexChoice } from '../../vector/vector-index';
import type { AppSettings } from '../../app/persist/settings';
import { ragasWhenSentence } from '../../app/view/ragas-when';
import { CragSettingsFields } from './CragSettingsFields';
import { CandidateFields, RetrievalFields } from './DecodeFields';
import { IndexSetting } from './IndexSetting';
import { WeightFields } from './WeightFields';

export function TuningPanel(props: {
  settings: Pick<AppSettings, 'rank' | 'decode' | 'corrective' | 'crag' | 'indexKind' | 'retrieval'>;
  /** A settings change; returns why it was refused (a contradictory CRAG pair), else null. */
  onChange: (patch: Partial<AppSettings>) => string | null;
  /** How long the last weight change took to re-rank, when there was an answer to re-rank. */
  lastRerankMs: number | null;
  indexKindInUse: IndexChoice;
  onReload: () => void;
  onReset: () => void;
  /**
   * The engine that writes here ('wllama' on the CPU, 'webllm' on WebGPU, undefined when not known),
   * for the line that says when the answer-quality check runs (app/view/ragas-when.ts); no line without it.
   */
  ragas?: { engine: 'webllm' | 'wllama' | undefined };
}) {
  const { settings, onChange } = props;
  const onDecode = (decode: AppSettings['decode']) => onChange({ decode });
  const onCorrective = (corrective: boolean) => onChange({ corrective });
  return (
    <aside className="panel tuning" aria-labelledby="tuning-heading">
      <h2 id="tuning-heading">Tuning</h2>
      <WeightFields rank={settings.rank} onRank={(rank) => onChange({ rank })} lastRerankMs={props.lastRerankMs} />
      <fieldset>
        <legend>Decoding (needs a new answer)</legend>
        <RetrievalFields
          decode={settings.decode}
          onDecode={onDecode}
          retrieval={settings.retrieval}
          onRetrieval={(retrieval) => onChange({ retrieval })}
        />
        <CandidateFields
          decode={settings.decode}
          onDecode={onDecode}
          corrective={settings.corrective}
          onCorrective={onCorrective}
        />
      </fieldset>
      <CragSettingsFields crag={settings.crag} corrective={settings.corrective} onCrag={(crag) => onChange({ crag })} />
      <IndexSetting
        kind={settings.indexKind}
        inUse={props.indexKindInUse}
        onKind={(indexKind) => onChange({ indexKind })}
        onReload={props.onReload}
      />
      {props.ragas && (
        <fieldset>
          <legend>Answer quality (RAGAS)</legend>
          <p className="muted" data-testid="ragas-when">
            {ragasWhenSentence(props.ragas.engine)}
          </p>
        </fieldset>
      )}
      <button type="button" onClick={props.onReset}>
        Reset to defaults
      </button>
    </aside>
  );
}
