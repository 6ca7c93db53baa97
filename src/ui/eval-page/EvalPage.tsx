// The #/eval page: a question set run through the configurations chosen, in this browser, with a
// summary, a chart and every answer; the harness is src/eval-runner, the run is useEvalRun.
import { useMemo, useState } from 'react';
import { DEFAULT_CRAG_SETTINGS, resolveCragSettings } from '../../core/crag/settings';
import { CONFIGS } from '../../eval-runner/configurations';
import { parseQuestionSet } from '../../eval-runner/question-set';
import type { QuestionRecord } from '../../eval-runner/run';
import './eval.css';
import { useEvalRun, type EvalPhase, type EvalSettings } from './hooks';
import { MetricsChart } from './MetricsChart';
import { QuestionTable } from './QuestionTable';
import { ConfigFields, QuestionSetFields, type RunOptions } from './SetupFields';
import { SummaryTable } from './SummaryTable';
import { errorMessage } from '../../core/errors';

const SAMPLE = 'eval/sample-questions.jsonl';

function Progress({ phase, records }: { phase: EvalPhase; records: QuestionRecord[] }) {
  return (
    <>
      <p role="status" aria-live="polite" className="eval-progress">
        {phase.kind === 'running' && `Running: ${phase.done} of ${phase.total} answers done…`}
        {phase.kind === 'finished' &&
          (phase.aborted ? `Stopped after ${records.length} answers.` : `Finished: ${records.length} answers.`)}
      </p>
      {phase.kind === 'failed' && (
        <p className="eval-error" role="alert">
          {phase.message}
        </p>
      )}
    </>
  );
}

/** `settings` are the controller's (their one owner): a run decodes, ranks and searches as the answer page does. */
export default function EvalPage({ settings }: { settings: EvalSettings }) {
  const [text, setText] = useState('');
  const [setName, setSetName] = useState('');
  const [options, setOptions] = useState<RunOptions>({
    configs: CONFIGS.map((c) => c.id),
    ragas: true,
    upper: String(DEFAULT_CRAG_SETTINGS.upper),
    lower: String(DEFAULT_CRAG_SETTINGS.lower),
    noEvidence: DEFAULT_CRAG_SETTINGS.noEvidence,
    wikipedia: false,
  });
  const evaluation = useEvalRun(settings);
  const { phase, records } = evaluation;
  const parsed = useMemo(() => (text.trim() ? parseQuestionSet(text) : null), [text]);
  const running = phase.kind === 'running';
  const { upper, lower, noEvidence, wikipedia } = options;
  const crag = useMemo(() => {
    try {
      const settings = resolveCragSettings({
        upper: Number(upper),
        lower: Number(lower),
        noEvidence,
        externalEnabled: wikipedia,
      });
      return { settings, error: null };
    } catch (e) {
      return { settings: null, error: errorMessage(e) };
    }
  }, [upper, lower, noEvidence, wikipedia]);
  const ready = !!parsed && parsed.errors.length === 0 && options.configs.length > 0 && !!crag.settings;

  async function loadSample() {
    try {
      const res = await fetch(new URL(SAMPLE, document.baseURI));
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      setText(await res.text());
      setSetName('sample-questions.jsonl');
    } catch (e) {
      const message = `Could not load the sample question set: ${errorMessage(e)}`;
      evaluation.setPhase({ kind: 'failed', message });
    }
  }

  return (
    <section className="eval-page" aria-labelledby="eval-title">
      <h2 id="eval-title">Evaluation</h2>
      <p className="muted">
        Run a question set (JSONL: <code>{'{"question": "…", "answers": ["…"], "documents"?: [...]}'}</code> per line)
        through the pipeline in this browser. Accuracy counts an answer correct when it contains a gold answer (PopQA
        style). Faithfulness, answer relevance and context relevance are the RAGAS metrics, computed by the models named
        in the export.
      </p>
      <QuestionSetFields
        disabled={running}
        text={text}
        onText={(t) => (setText(t), setSetName(''))}
        onSample={() => void loadSample()}
        onFile={(file) => void file?.text().then((t) => (setText(t), setSetName(file.name)))}
        parsed={parsed}
      />
      <ConfigFields disabled={running} options={options} onOptions={setOptions} cragError={crag.error} />
      <div className="eval-actions">
        <button
          type="button"
          onClick={() =>
            ready &&
            void evaluation.run({
              items: parsed.items,
              configs: options.configs,
              crag: crag.settings,
              ragas: options.ragas,
              wikipedia,
            })
          }
          disabled={running || !ready}
        >
          Run evaluation
        </button>{' '}
        <button type="button" onClick={evaluation.stop} disabled={!running}>
          Stop
        </button>{' '}
        <button
          type="button"
          onClick={() => evaluation.exportJson({ crag: crag.settings, ragas: options.ragas, setName })}
          disabled={running || records.length === 0}
        >
          Export JSON
        </button>
      </div>
      <Progress phase={phase} records={records} />
      {records.length > 0 && (
        <>
          <h3>Summary</h3>
          <SummaryTable summary={evaluation.summary} />
          <MetricsChart summary={evaluation.summary} />
          <h3>Answers</h3>
          <QuestionTable items={evaluation.runItems} records={records} configs={evaluation.ran} />
        </>
      )}
    </section>
  );
}
