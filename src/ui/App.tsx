// The answer page (or the evaluation page, at #/eval): the header, the main column with the
// question and the answer, the panels beside it, and the passage dialog a citation opens.
import { lazy, Suspense, useEffect, useState } from 'react';
import type { WebGpuCheck } from '../app/browser/webgpu';
import { threadActions } from '../app/wiring/thread-actions';
import { loadingSomething } from '../app/view/page-flags';
import { modelsUnreachable } from '../app/view/models-reach';
import type { OpenedPassage } from './PassageDialog';
import { MainColumn } from './app/MainColumn';
import { LeftPanels, RightPanels } from './app/SidePanels';
import { TopBar } from './app/TopBar';
import { useApp, useHashRoute, useNow, useStore, useTheme } from './hooks';
import { PassageDialog } from './lazy-panels';
import { SourceLoaderContext } from './source/SourceLoader';
import { OfflineBanner } from './UpdateBanner';
import { showOpenedAnswer } from '../app/view/show-opened';

const EvalPage = lazy(() => import('./eval-route'));

export function App() {
  const { controller, conversation, services, offline, initialQuestion, share } = useApp();
  const page = useStore(controller, controller.getState);
  const convo = useStore(conversation, conversation.get);
  const status = useStore(services.status, services.status.get);
  const library = useStore(services.library, services.library.get);
  const onEval = useHashRoute().startsWith('#/eval');
  const now = useNow(loadingSomething(library, status));
  const [webgpu, setWebgpu] = useState<WebGpuCheck | null>(null);
  const [passageOf, setPassageOf] = useState<OpenedPassage | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [threads] = useState(() => threadActions(conversation, setImportError, showOpenedAnswer));
  useTheme(page.settings.theme);

  useEffect(() => {
    void services.webgpu().then(setWebgpu);
  }, [services]);

  return (
    <div className="app">
      <a className="skip" href="#question">
        Skip to the question
      </a>
      <TopBar
        onEval={onEval}
        theme={page.settings.theme}
        onTheme={(theme) => controller.change({ theme })}
        onShare={share}
      />
      <OfflineBanner {...offline} />
      {onEval ? (
        <main id="main" className="eval-main">
          <Suspense fallback={<p>Loading the evaluation page…</p>}>
            <EvalPage settings={page.settings} />
          </Suspense>
        </main>
      ) : (
        <div className="layout">
          <MainColumn
            controller={controller}
            conversation={conversation}
            services={services}
            page={page}
            convo={convo}
            initialQuestion={initialQuestion}
            onShare={share}
            webgpu={webgpu}
            unreachable={modelsUnreachable(status)}
            importError={importError}
            onAsked={() => setImportError(null)}
            onOpenPassage={setPassageOf}
          />
          <LeftPanels
            controller={controller}
            services={services}
            page={page}
            library={library}
            convo={convo}
            threadActions={threads}
            now={now}
          />
          <RightPanels
            controller={controller}
            services={services}
            page={page}
            status={status}
            noWebGpu={webgpu !== null && !webgpu.ok}
            now={now}
            offline={offline}
          />
        </div>
      )}
      <SourceLoaderContext.Provider value={services.library.actions.source ?? null}>
        <PassageDialog candidate={passageOf} onClose={() => setPassageOf(null)} />
      </SourceLoaderContext.Provider>
    </div>
  );
}
