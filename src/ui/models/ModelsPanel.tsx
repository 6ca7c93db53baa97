// The models drawer's content: each worker's status with the engine and model pickers, and the
// offline status. It loads just after the first paint (lazy-panels.tsx).
import type { AppServices } from '../../app/wiring/services-contract';
import type { Controller } from '../../app/wiring/controller';
import type { AppState } from '../../app/state/page';
import type { StatusMap } from '../../app/state/worker-status';
import { OfflinePanel } from '../lazy-panels';
import type { OfflineWiring } from '../OfflineStatus';
import { modelsUnreachable } from '../../app/view/models-reach';
import { StatusPanel } from '../StatusPanel';
import { useModelControls } from './model-controls';

export function ModelsPanel(props: {
  controller: Controller;
  services: AppServices;
  page: AppState;
  status: StatusMap;
  noWebGpu: boolean;
  now: number;
  offline?: OfflineWiring;
}) {
  const { controller, services, page, status } = props;
  const modelControls = useModelControls(
    controller,
    services,
    page.settings,
    status.generator.state === 'loading',
    props.noWebGpu,
    page.evidenceOnly !== null,
  );
  return (
    <>
      <StatusPanel
        status={status}
        generatorCalls={page.generatorCalls}
        now={props.now}
        {...modelControls}
        evidenceOnly={page.evidenceOnly !== null}
        unreachable={modelsUnreachable(status)}
        onLoadGenerator={services.loadGenerator}
        onCancelGenerator={services.cancelGenerator}
        {...(services.retryEvaluator ? { onRetryEvaluator: services.retryEvaluator } : {})}
      />
      {props.offline && <OfflinePanel {...props.offline} />}
    </>
  );
}
