// The panels beside the answer (folded below it on a phone): the library and the threads on the
// left; the models and the tuning on the right.
import { libraryLabel, libraryWantsOpen } from '../../app/view/library-panel';
import type { LibraryViewState } from '../../app/state/library';
import { modelsSummary } from '../../app/view/models-summary';
import type { AppServices } from '../../app/wiring/services-contract';
import type { Controller } from '../../app/wiring/controller';
import type { ConversationState } from '../../app/wiring/conversation';
import type { ThreadActions } from '../../app/wiring/thread-actions';
import type { AppState } from '../../app/state/page';
import type { StatusMap } from '../../app/state/worker-status';
import { Drawer } from '../Drawer';
import { useStore } from '../hooks';
import { LibraryPanel } from '../library/LibraryPanel';
import { ModelsPanel, ThreadList, TuningPanel } from '../lazy-panels';
import type { OfflineWiring } from '../OfflineStatus';

const NO_ENGINE = { get: () => undefined, subscribe: () => () => {} };

export function LeftPanels(props: {
  controller: Controller;
  services: AppServices;
  page: AppState;
  library: LibraryViewState;
  convo: ConversationState;
  threadActions: ThreadActions;
  now: number;
}) {
  const { controller, services, library } = props;
  return (
    <div className="side side-left">
      <Drawer name="library" label={libraryLabel(library)} suggestOpen={libraryWantsOpen(library)}>
        <LibraryPanel
          view={library}
          actions={services.library.actions}
          now={props.now}
          originals={{
            keep: props.page.settings.keepOriginals,
            onKeep: (keepOriginals) => controller.change({ keepOriginals }),
            forVisitOnly: services.storage?.get().mode === 'memory',
          }}
        />
      </Drawer>
      <Drawer name="threads" label="Threads">
        <ThreadList state={props.convo} actions={props.threadActions} />
      </Drawer>
    </div>
  );
}

export function RightPanels(props: {
  controller: Controller;
  services: AppServices;
  page: AppState;
  status: StatusMap;
  noWebGpu: boolean;
  now: number;
  offline?: OfflineWiring;
}) {
  const { controller, services, page } = props;
  const engine = useStore(services.engine ?? NO_ENGINE, services.engine?.get ?? NO_ENGINE.get);
  return (
    <div className="side side-right">
      {/* Engines and models are one step away from a newcomer: beside the answer on a wide screen, folded on a phone. */}
      <Drawer name="models" label={`Models: ${modelsSummary(props.status)}`}>
        <ModelsPanel {...props} />
      </Drawer>
      <Drawer name="tuning" label="Tuning">
        <TuningPanel
          settings={page.settings}
          onChange={controller.change}
          lastRerankMs={page.answer.ranking ? page.lastRerankMs : null}
          indexKindInUse={services.indexKindInUse()}
          onReload={() => location.reload()}
          onReset={controller.resetSettings}
          ragas={{ engine: engine?.inUse }}
        />
      </Drawer>
    </div>
  );
}
