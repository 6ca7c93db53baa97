import { useMemo, useRef, useState } from 'react';
import { getServices, type Services } from '../../app/wiring/services';
import { loadSettings } from '../../app/persist/settings';
import { DEFAULT_CRAG_SETTINGS, resolveCragSettings, type NoEvidencePolicy } from '../../core/crag/settings';
import { createWikipediaSearch } from '../../external/wikipedia';
import { CONFIGS, type ConfigId } from '../../eval-runner/configurations';
import { evalPorts } from '../../eval-runner/connect';
import { MetricsChart } from './MetricsChart';
import { QuestionTable } from './QuestionTable';
import { parseQuestionSet, type EvalItem } from '../../eval-runner/question-set';
import './eval.css';
import { runEvaluation, type QuestionRecord } from '../../eval-runner/run';
import { buildExport, summarise } from '../../eval-runner/summary';
import { SummaryTable } from './SummaryTable';

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'finished'; aborted: boolean }
  | { kind: 'failed'; message: string };

const SAMPLE = 'eval/sample-questions.jsonl';

export default function EvalPage({ services }: { services?: Services }) {
  const [text, setText] = useState('');
  const [setName, setSetName] = useState('');
  const [configs, setConfigs] = useState<ConfigId[]>(CONFIGS.map((c) => c.id));
  const [ragas, setRagas] = useState(true);
  const [noEvidence, setNoEvidence] = useState<NoEvidencePolicy>(DEFAULT_CRAG_SETTINGS.noEvidence);
  const [wikipedia, setWikipedia] = useState(false);
  const [upper, setUpper] = useState(String(DEFAULT_CRAG_SETTINGS.upper));
  const [lower, setLower] = useState(String(DEFAULT_CRAG_SETTINGS.lower));
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [records, setRecords] = useState<QuestionRecord[]>([]);
  const [runItems, setRunItems] = useState<EvalItem[]>([]);
  const [models, setModels] = useState<Record<string, string>>({});
  const abort = useRef<AbortController | null>(null);

  const parsed = useMemo(() => (text.trim() ? parseQuestionSet(text) : null), [text]);
  const ran = useMemo(() => CONFIGS.map((c) => c.id).filter((c) => records.some((r) => r.config === c)), [records]);
  const summary = useMemo(() => summarise(records, ran), [records, ran]);
  const running = phase.kind === 'running';
  const crag = useMemo(() => {
    try {
      return {
        settings: resolveCragSettings({
          upper: Number(upper),
          lower: Number(lower),
          noEvidence,
          externalEnabled: wikipedia,
        }),
        error: null,
      };
    } catch (e) {
      return { settings: null, error: e instanceof Error ? e.message : String(e) };
    }
  }, [upper, lower, noEvidence, wikipedia]);

  async function loadSample() {
    try {
      const res = await fetch(new URL(SAMPLE, document.baseURI));
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      setText(await res.text());
      setSetName('sample-questions.jsonl');
    } catch (e) {
      setPhase({
        kind: 'failed',
        message: `Could not load the sample question set: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }

  async function loadFile(file: File | undefined) {
    if (!file) return;
    setText(await file.text());
    setSetName(file.name);
  }

  async function run() {
    if (!parsed || parsed.errors.length || !configs.length || !crag.settings) return;
    const ac = new AbortController();
    abort.current = ac;
    setRecords([]);
    setRunItems(parsed.items);
    setPhase({ kind: 'running', done: 0, total: parsed.items.length * configs.length });
    try {
      const s = services ?? getServices();
      const ports = await evalPorts(s, wikipedia ? { external: createWikipediaSearch() } : {});
      setModels(
        Object.fromEntries(Object.entries(ports.models).filter((e): e is [string, string] => typeof e[1] === 'string')),
      );
      const settings = loadSettings(globalThis.localStorage);
      const order = CONFIGS.map((c) => c.id).filter((c) => configs.includes(c));
      await runEvaluation(parsed.items, ports, {
        configs: order,
        decode: settings.decode,
        rank: settings.rank,
        crag: crag.settings,
        ragas,
        signal: ac.signal,
        onRecord: (r, done, total) => {
          setRecords((rs) => [...rs, r]);
          setPhase({ kind: 'running', done, total });
        },
      });
      setPhase({ kind: 'finished', aborted: ac.signal.aborted });
    } catch (e) {
      setPhase({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
    } finally {
      abort.current = null;
    }
  }

  function exportJson() {
    const settings = loadSettings(globalThis.localStorage);
    const data = buildExport({
      createdAt: new Date().toISOString(),
      questionSet: setName || 'pasted',
      models,
      settings: { decode: settings.decode, rank: settings.rank, crag: crag.settings, ragas },
      summary,
      records,
    });
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `evaluation-${data.createdAt.replace(/[:.]/g, '-')}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
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

      <fieldset disabled={running}>
        <legend>Question set</legend>
        <button type="button" onClick={() => void loadSample()}>
          Load the sample set
        </button>{' '}
        <label>
          or a file:{' '}
          <input
            type="file"
            accept=".jsonl,.json,.txt,application/jsonl"
            onChange={(e) => void loadFile(e.target.files?.[0])}
          />
        </label>
        <label className="eval-textarea">
          Questions (JSONL)
          <textarea
            value={text}
            onChange={(e) => (setText(e.target.value), setSetName(''))}
            rows={6}
            spellCheck={false}
          />
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

      <fieldset disabled={running}>
        <legend>Configurations</legend>
        {CONFIGS.map((c) => (
          <label key={c.id} className="eval-check">
            <input
              type="checkbox"
              checked={configs.includes(c.id)}
              onChange={(e) => setConfigs((cs) => (e.target.checked ? [...cs, c.id] : cs.filter((x) => x !== c.id)))}
            />{' '}
            {c.label}
          </label>
        ))}
        <label className="eval-check">
          <input type="checkbox" checked={ragas} onChange={(e) => setRagas(e.target.checked)} /> Compute RAGAS metrics
        </label>
        <label className="eval-check">
          Self-CRAG upper threshold (Correct when a passage scores above it):{' '}
          <input type="number" min={0} max={1} step={0.01} value={upper} onChange={(e) => setUpper(e.target.value)} />
        </label>
        <label className="eval-check">
          Self-CRAG lower threshold (Incorrect when every passage scores below it):{' '}
          <input type="number" min={0} max={1} step={0.01} value={lower} onChange={(e) => setLower(e.target.value)} />
        </label>
        {crag.error && (
          <p className="eval-error" role="alert">
            {crag.error}
          </p>
        )}
        <label className="eval-check">
          Self-CRAG without evidence:{' '}
          <select value={noEvidence} onChange={(e) => setNoEvidence(e.target.value as NoEvidencePolicy)}>
            <option value="answer-without-retrieval">answer without retrieval (marked)</option>
            <option value="abstain">abstain</option>
          </select>
        </label>
        <label className="eval-check">
          <input type="checkbox" checked={wikipedia} onChange={(e) => setWikipedia(e.target.checked)} /> Self-CRAG may
          search Wikipedia when online (sends the rewritten keywords to wikipedia.org)
        </label>
      </fieldset>

      <div className="eval-actions">
        <button
          type="button"
          onClick={() => void run()}
          disabled={running || !parsed || parsed.errors.length > 0 || !configs.length || !crag.settings}
        >
          Run evaluation
        </button>{' '}
        <button type="button" onClick={() => abort.current?.abort()} disabled={!running}>
          Stop
        </button>{' '}
        <button type="button" onClick={exportJson} disabled={running || records.length === 0}>
          Export JSON
        </button>
      </div>

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

      {records.length > 0 && (
        <>
          <h3>Summary</h3>
          <SummaryTable summary={summary} />
          <MetricsChart summary={summary} />
          <h3>Answers</h3>
          <QuestionTable items={runItems} records={records} configs={ran} />
        </>
      )}
    </section>
  );
}
