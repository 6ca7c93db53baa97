// What an evaluation run takes: the question set (the sample, a file or pasted JSONL), the
// configurations to compare, RAGAS on or off, and Self-CRAG's thresholds and fallbacks.
import type { NoEvidencePolicy } from '../../core/crag/settings';
import { CONFIGS, type ConfigId } from '../../eval-runner/configurations';
import type { parseQuestionSet } from '../../eval-runner/question-set';

export function QuestionSetFields(props: {
  disabled: boolean;
  text: string;
  onText: (text: string) => void;
  onSample: () => void;
  onFile: (file: File | undefined) => void;
  parsed: ReturnType<typeof parseQuestionSet> | null;
}) {
  const { parsed } = props;
  return (
    <fieldset disabled={props.disabled}>
      <legend>Question set</legend>
      <button type="button" onClick={props.onSample}>
        Load the sample set
      </button>{' '}
      <label>
        or a file:{' '}
        <input
          type="file"
          accept=".jsonl,.json,.txt,application/jsonl"
          onChange={(e) => props.onFile(e.target.files?.[0])}
        />
      </label>
      <label className="eval-textarea">
        Questions (JSONL)
        <textarea value={props.text} onChange={(e) => props.onText(e.target.value)} rows={6} spellCheck={false} />
      </label>
      {parsed && parsed.errors.length > 0 && (
        <ul className="eval-error" role="alert" aria-label="Problems in the question set">
          {parsed.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      {parsed && !parsed.errors.length && <p role="status">{parsed.items.length} questions ready.</p>}
    </fieldset>
  );
}

/** The run's options as the form holds them (thresholds as typed). */
export interface RunOptions {
  configs: ConfigId[];
  ragas: boolean;
  upper: string;
  lower: string;
  noEvidence: NoEvidencePolicy;
  wikipedia: boolean;
}

export function ConfigFields(props: {
  disabled: boolean;
  options: RunOptions;
  onOptions: (change: (o: RunOptions) => RunOptions) => void;
  /** Why the CRAG thresholds cannot work, if so. */
  cragError: string | null;
}) {
  const o = props.options;
  const set = (patch: Partial<RunOptions>) => props.onOptions((prev) => ({ ...prev, ...patch }));
  return (
    <fieldset disabled={props.disabled}>
      <legend>Configurations</legend>
      {CONFIGS.map((c) => (
        <label key={c.id} className="eval-check">
          <input
            type="checkbox"
            checked={o.configs.includes(c.id)}
            onChange={(e) =>
              props.onOptions((prev) => ({
                ...prev,
                configs: e.target.checked ? [...prev.configs, c.id] : prev.configs.filter((x) => x !== c.id),
              }))
            }
          />{' '}
          {c.label}
        </label>
      ))}
      <label className="eval-check">
        <input type="checkbox" checked={o.ragas} onChange={(e) => set({ ragas: e.target.checked })} /> Compute RAGAS
        metrics
      </label>
      <label className="eval-check">
        Self-CRAG upper threshold (Correct when a passage scores above it):{' '}
        <input
          type="number"
          min={0}
          max={1}
          step={0.01}
          value={o.upper}
          onChange={(e) => set({ upper: e.target.value })}
        />
      </label>
      <label className="eval-check">
        Self-CRAG lower threshold (Incorrect when every passage scores below it):{' '}
        <input
          type="number"
          min={0}
          max={1}
          step={0.01}
          value={o.lower}
          onChange={(e) => set({ lower: e.target.value })}
        />
      </label>
      {props.cragError && (
        <p className="eval-error" role="alert">
          {props.cragError}
        </p>
      )}
      <label className="eval-check">
        Self-CRAG without evidence:{' '}
        <select value={o.noEvidence} onChange={(e) => set({ noEvidence: e.target.value as NoEvidencePolicy })}>
          <option value="answer-without-retrieval">answer without retrieval (marked)</option>
          <option value="abstain">abstain</option>
        </select>
      </label>
      <label className="eval-check">
        <input type="checkbox" checked={o.wikipedia} onChange={(e) => set({ wikipedia: e.target.checked })} /> Self-CRAG
        may search Wikipedia when online (sends the rewritten keywords to wikipedia.org)
      </label>
    </fieldset>
  );
}
