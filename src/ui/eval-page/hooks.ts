// The evaluation page's hooks: a run of a question set (its phase, records, export), and the
// RAGAS measuring beside an answer. The harness itself is src/eval-runner.
import { useEffect, useMemo, useRef, useState } from 'react';
import { downloadText } from '../../app/browser/download';
import type { AppSettings } from '../../app/persist/settings';
import { evalSources } from '../../app/wiring/eval-sources';
import type { CragSettings } from '../../core/crag/settings';
import type { Ranking } from '../../core/types';
import {
  answerForMetrics,
  createMetricsSession,
  type MetricsSession,
  type MetricsView,
} from '../../eval-runner/answer-metrics';
import { CONFIGS, type ConfigId } from '../../eval-runner/configurations';
import { evalPorts, ragasPorts } from '../../eval-runner/connect';
import type { EvalItem } from '../../eval-runner/question-set';
import { runEvaluation, type QuestionRecord } from '../../eval-runner/run';
import { buildExport, summarise } from '../../eval-runner/summary';
import { createWikipediaSearch } from '../../external/wikipedia';
import { errorMessage } from '../../core/errors';
import { useApp } from '../hooks';

export type EvalPhase =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'finished'; aborted: boolean }
  | { kind: 'failed'; message: string };

/** What a run is asked to do. */
export interface EvalRequest {
  items: EvalItem[];
  configs: ConfigId[];
  crag: CragSettings;
  ragas: boolean;
  wikipedia: boolean;
}

/** The settings a run uses: the controller's (their one owner), the same the answer page uses. */
export type EvalSettings = Pick<AppSettings, 'decode' | 'rank' | 'retrieval'>;

/** A run of a question set through the configurations chosen, its records as they come, and their export. */
export function useEvalRun(settings: EvalSettings) {
  const services = useApp().harness;
  const [phase, setPhase] = useState<EvalPhase>({ kind: 'idle' });
  const [records, setRecords] = useState<QuestionRecord[]>([]);
  const [runItems, setRunItems] = useState<EvalItem[]>([]);
  const [models, setModels] = useState<Record<string, string>>({});
  const abort = useRef<AbortController | null>(null);
  const ran = useMemo(() => CONFIGS.map((c) => c.id).filter((c) => records.some((r) => r.config === c)), [records]);
  const summary = useMemo(() => summarise(records, ran), [records, ran]);

  async function run(req: EvalRequest) {
    const ac = new AbortController();
    abort.current = ac;
    setRecords([]);
    setRunItems(req.items);
    setPhase({ kind: 'running', done: 0, total: req.items.length * req.configs.length });
    try {
      const ports = await evalPorts(
        evalSources(services),
        settings.retrieval,
        req.wikipedia ? { external: createWikipediaSearch() } : {},
      );
      setModels(
        Object.fromEntries(Object.entries(ports.models).filter((e): e is [string, string] => typeof e[1] === 'string')),
      );
      await runEvaluation(req.items, ports, {
        configs: CONFIGS.map((c) => c.id).filter((c) => req.configs.includes(c)),
        decode: settings.decode,
        rank: settings.rank,
        crag: req.crag,
        ragas: req.ragas,
        signal: ac.signal,
        onRecord: (r, done, total) => {
          setRecords((rs) => [...rs, r]);
          setPhase({ kind: 'running', done, total });
        },
      });
      setPhase({ kind: 'finished', aborted: ac.signal.aborted });
    } catch (e) {
      setPhase({ kind: 'failed', message: errorMessage(e) });
    } finally {
      abort.current = null;
    }
  }

  function exportJson(current: { crag: CragSettings | null; ragas: boolean; setName: string }) {
    const data = buildExport({
      createdAt: new Date().toISOString(),
      questionSet: current.setName || 'pasted',
      models,
      settings: { decode: settings.decode, rank: settings.rank, crag: current.crag, ragas: current.ragas },
      summary,
      records,
    });
    downloadText(
      `evaluation-${data.createdAt.replace(/[:.]/g, '-')}.json`,
      JSON.stringify(data, null, 2),
      'application/json',
    );
  }

  return { phase, setPhase, records, runItems, ran, summary, run, stop: () => abort.current?.abort(), exportJson };
}

/**
 * RAGAS metrics for a finished answer: each finished decode (`runId`) is measured once, a
 * macrotask after it is painted (or after `held` turns false), and unmounting (a new question) cancels it. Figures already
 * measured are reported once through `onMeasured`.
 */
export function useMetricsSession(props: {
  question: string;
  ranking: Ranking;
  runId: number;
  useStored: boolean;
  /** Nothing is measured until this is false (a check that runs on request, not yet asked for). */
  held?: boolean;
  onMeasured?: (figures: Record<string, number | null>) => void;
}) {
  const { question, ranking, runId, useStored, held, onMeasured } = props;
  const services = useApp().harness;
  const input = useMemo(() => answerForMetrics(question, ranking), [question, ranking]);
  const [view, setView] = useState<MetricsView>({ measured: null, stale: false, calls: 0 });
  const session = useRef<MetricsSession | null>(null);

  useEffect(() => {
    const s = createMetricsSession(() => ragasPorts(evalSources(services)), setView);
    session.current = s;
    return () => {
      s.dispose();
      session.current = null;
    };
  }, [services]);

  useEffect(() => {
    if (useStored || held) return;
    // A macrotask later, so the finished answer is painted before any measuring starts.
    const timer = setTimeout(() => session.current?.show(runId, input), 0);
    return () => clearTimeout(timer);
  }, [runId, input, useStored, held]);

  const state = view.measured?.state ?? null;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (state?.status !== 'done' || view.stale || reported.current === state) return;
    reported.current = state;
    onMeasured?.({
      faithfulness: state.report.faithfulness.score,
      answerRelevance: state.report.answerRelevance.score,
      contextRelevance: state.report.contextRelevance.score,
    });
  }, [state, view.stale, onMeasured]);

  return { view, state, session };
}
