// The answer page: library, ask box, answer or evidence, tuning, status.
import { lazy, Suspense, useEffect, useState } from 'react';
import { libraryLabel } from '../app/view/library-panel';
import { modelsSummary } from '../app/view/models-summary';
import type { AppServices, WebGpuCheck } from '../app/wiring/services-contract';
import type { Controller } from '../app/wiring/controller';
import { noWebGpuPlan } from '../app/state/engine-choice';
import type { Conversation } from '../app/wiring/conversation';
import type { Candidate } from '../core/types';
import { AskBox } from './AskBox';
import { Drawer } from './Drawer';
import { useHashRoute, useNow, useStore } from './hooks';
import { LibraryPanel } from './LibraryPanel';
// What the first screen does not show loads on first use (lazy-panels.tsx).
import {
  AnswerView,
  EvidenceView,
  OfflinePanel,
  PassageDialog,
  StatusPanel,
  StorageNotice,
  ThreadList,
  ThreadView,
  TuningPanel,
} from './lazy-panels';
import { useModelControls } from './model-controls';
import { Notices } from './Notices';
import { SourceLoaderContext } from './source/SourceLoader';
import type { OfflineWiring } from './OfflineStatus';
import { OfflineBanner } from './UpdateBanner';
import { ThemeSwitch } from './ThemeSwitch';
import type { ThreadActions } from './ThreadList';

const NO_ENGINE = { get: () => undefined, subscribe: () => () => {} };

const EvalPage = lazy(() => import('./eval-route'));

export function App(props: {
  controller: Controller;
  conversation: Conversation;
  services: AppServices;
  initialQuestion: string;
  onShare: () => string;
  offline?: OfflineWiring;
}) {
  const { controller, services } = props;
  const state = useStore(controller, controller.getState);
  const conversation = props.conversation;
  const convo = useStore(conversation, conversation.get);
  const threadActions: ThreadActions = {
    open: (id) => void conversation.open(id),
    rename: (id, title) => void conversation.rename(id, title),
    remove: (id) => void conversation.remove(id),
    newThread: conversation.newThread,
    exportMarkdown: () => {
      const title = convo.thread?.title;
      void Promise.all([conversation.exportMarkdown(), import('../app/browser/download')]).then(
        ([md, { downloadText, fileNameFor }]) => {
          if (md && title !== undefined) downloadText(fileNameFor(title, 'md'), md, 'text/markdown');
        },
      );
    },
    exportJson: () => {
      const title = convo.thread?.title;
      void Promise.all([conversation.exportJson(), import('../app/browser/download')]).then(
        ([json, { downloadText, fileNameFor }]) => {
          if (json && title !== undefined) downloadText(fileNameFor(title, 'json'), json, 'application/json');
        },
      );
    },
    importFile: (file) => {
      void file
        .text()
        .then((text) => conversation.importJson(text))
        .catch((e: unknown) => setImportError(e instanceof Error ? e.message : String(e)));
    },
  };
  const [importError, setImportError] = useState<string | null>(null);
  const viewedTurn = convo.viewed ? convo.thread?.turns[convo.viewed] : undefined;
  const status = useStore(services.status, services.status.get);
  const library = useStore(services.library, services.library.get);
  const route = useHashRoute();
  const [webgpu, setWebgpu] = useState<WebGpuCheck | null>(null);
  const { onUseLlama, ...modelControls } = useModelControls(
    controller,
    services,
    state.settings,
    status.generator.state === 'loading',
    webgpu !== null && !webgpu.ok,
  );
  const engine = useStore(services.engine ?? NO_ENGINE, services.engine?.get ?? NO_ENGINE.get);
  const [passageOf, setPassageOf] = useState<Pick<Candidate, 'passage' | 'text'> | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const loading = library.jobs.length > 0 || Object.values(status).some((s) => s.state === 'loading');
  const now = useNow(loading);

  useEffect(() => {
    void services.webgpu().then(setWebgpu);
  }, [services]);

  useEffect(() => {
    const t = state.settings.theme;
    if (t === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = t;
  }, [state.settings.theme]);

  const busy = state.answer.status === 'running' || convo.rewriting || convo.running !== null;
  const evidence = state.evidenceOnly !== null || state.answer.evidence !== null;
  const onEval = route.startsWith('#/eval');
  const inThread = !!convo.thread && convo.thread.roots.length > 0;

  return (
    <div className="app">
      <a className="skip" href="#question">
        Skip to the question
      </a>
      <header className="top">
        <h1>Self-RAG in your browser</h1>
        <nav aria-label="Pages">
          <a href="#/" aria-current={onEval ? undefined : 'page'}>
            Answer
          </a>
          <a href="#/eval" aria-current={onEval ? 'page' : undefined}>
            Evaluate
          </a>
        </nav>
        <div className="top-actions">
          <button
            type="button"
            onClick={() => {
              const url = props.onShare();
              void navigator.clipboard?.writeText(url).then(
                () => setCopied('Link copied.'),
                () => setCopied(url),
              );
            }}
          >
            Copy link to this question
          </button>
          {copied && (
            <span className="muted" role="status">
              {copied}
            </span>
          )}
          <ThemeSwitch theme={state.settings.theme} onChange={(theme) => controller.change({ theme })} />
        </div>
      </header>
      {props.offline && <OfflineBanner {...props.offline} />}
      {onEval ? (
        <main id="main" className="eval-main">
          <Suspense fallback={<p>Loading the evaluation page…</p>}>
            <EvalPage />
          </Suspense>
        </main>
      ) : (
        <div className="layout">
          <main id="main" className="center">
            <p className="tagline muted">Ask questions about your own documents. Nothing leaves this machine.</p>
            <AskBox
              initial={props.initialQuestion}
              busy={busy}
              evidenceOnly={state.evidenceOnly !== null}
              onAsk={(q) => {
                setImportError(null);
                void conversation.ask(q);
              }}
              onStop={controller.stop}
            />
            {services.storage && <StorageNotice plan={services.storage} openUrl={props.onShare} />}
            <Notices
              webgpu={webgpu}
              noWebGpu={noWebGpuPlan(engine?.choice.engine ?? 'auto')}
              onUseLlama={onUseLlama}
              evidenceOnly={state.evidenceOnly}
              pending={controller.pendingDecodeChanges()}
              busy={busy}
              onEvidenceOnly={controller.enterEvidenceOnly}
              onLeaveEvidenceOnly={controller.leaveEvidenceOnly}
              onRerun={() => void controller.ask(state.answer.question)}
            />
            {convo.notice && (
              <p
                className={`notice${convo.notice.kind === 'warn' ? ' warn' : ''}`}
                role="status"
                data-testid="conversation-notice"
              >
                {convo.notice.text}{' '}
                <button type="button" className="dismiss" onClick={conversation.dismissNotice} aria-label="Dismiss">
                  ✕
                </button>
              </p>
            )}
            {importError && (
              <p className="error" role="alert" data-testid="import-error">
                {importError}
              </p>
            )}
            <ThreadView
              state={convo}
              conversation={conversation}
              busy={busy}
              viewedAnswer={
                evidence ? (
                  <EvidenceView answer={state.answer} showQuestion={!inThread} onOpenPassage={setPassageOf} />
                ) : (
                  state.answer.status !== 'idle' && (
                    <AnswerView
                      answer={state.answer}
                      showQuestion={!inThread}
                      onOpenPassage={setPassageOf}
                      figures={viewedTurn?.figures}
                      onFigures={viewedTurn ? (f) => conversation.setFigures(viewedTurn.id, f) : undefined}
                    />
                  )
                )
              }
            />
          </main>
          <div className="side side-left">
            <Drawer
              name="library"
              label={libraryLabel(library.docs)}
              suggestOpen={library.ready && !library.docs.some((d) => !d.sample)}
            >
              <LibraryPanel
                view={library}
                actions={services.library.actions}
                now={now}
                originals={{
                  keep: state.settings.keepOriginals,
                  onKeep: (keepOriginals) => controller.change({ keepOriginals }),
                  forVisitOnly: services.storage?.get().mode === 'memory',
                }}
              />
            </Drawer>
            <Drawer name="threads" label="Threads">
              <ThreadList state={convo} actions={threadActions} />
            </Drawer>
          </div>
          <div className="side side-right">
            {/* Engines and models are one step away from a newcomer: beside the answer on a wide screen, folded on a phone. */}
            <Drawer name="models" label={`Models: ${modelsSummary(status)}`}>
              <StatusPanel
                status={status}
                generatorCalls={state.generatorCalls}
                now={now}
                {...modelControls}
                onLoadGenerator={services.loadGenerator}
                onCancelGenerator={services.cancelGenerator}
                {...(services.retryEvaluator ? { onRetryEvaluator: services.retryEvaluator } : {})}
              />
              {props.offline && <OfflinePanel {...props.offline} />}
            </Drawer>
            <Drawer name="tuning" label="Tuning">
              <TuningPanel
                rank={state.settings.rank}
                decode={state.settings.decode}
                onRank={(rank) => controller.change({ rank })}
                onDecode={(decode) => controller.change({ decode })}
                corrective={state.settings.corrective}
                lastRerankMs={state.answer.ranking ? state.lastRerankMs : null}
                onCorrective={(corrective) => controller.change({ corrective })}
                crag={state.settings.crag}
                onCrag={(crag) => controller.change({ crag })}
                indexKind={state.settings.indexKind}
                indexKindInUse={services.indexKindInUse()}
                onIndexKind={(indexKind) => controller.change({ indexKind })}
                retrieval={state.settings.retrieval}
                onRetrieval={(retrieval) => controller.change({ retrieval })}
                onReload={() => location.reload()}
                onReset={controller.resetSettings}
              />
            </Drawer>
          </div>
        </div>
      )}
      <SourceLoaderContext.Provider value={services.library.actions.source ?? null}>
        <PassageDialog candidate={passageOf} onClose={() => setPassageOf(null)} />
      </SourceLoaderContext.Provider>
    </div>
  );
}
