// The answer page's main column: the question box, the notices above the answer, and the thread
// with the answer shown (or the passages, in evidence-only mode).
import type { AppServices } from '../../app/wiring/services-contract';
import type { WebGpuCheck } from '../../app/browser/webgpu';
import type { Controller } from '../../app/wiring/controller';
import type { Conversation, ConversationState } from '../../app/wiring/conversation';
import type { AppState } from '../../app/state/page';
import { noWebGpuPlan } from '../../app/view/no-webgpu-plan';
import { inThread, showsEvidence } from '../../app/view/page-flags';
import { answering } from '../../app/state/conversation';
import type { OpenedPassage } from '../PassageDialog';
import { AskBox } from '../AskBox';
import { useStore } from '../hooks';
import { AnswerView, EvidenceView, Notices, StorageNotice, ThreadView } from '../lazy-panels';

const NO_ENGINE = { get: () => undefined, subscribe: () => () => {} };

type OpenPassage = (c: OpenedPassage) => void;

/** The answer shown in full: the viewed turn's, or the passages found in evidence-only mode. */
function ViewedAnswer(props: {
  page: AppState;
  convo: ConversationState;
  conversation: Conversation;
  onOpenPassage: OpenPassage;
}) {
  const { page, convo, conversation } = props;
  const showQuestion = !inThread(convo);
  if (showsEvidence(page))
    return <EvidenceView answer={page.answer} showQuestion={showQuestion} onOpenPassage={props.onOpenPassage} />;
  if (page.answer.status === 'idle') return null;
  const turn = convo.viewed ? convo.thread?.turns[convo.viewed] : undefined;
  return (
    <AnswerView
      answer={page.answer}
      showQuestion={showQuestion}
      onOpenPassage={props.onOpenPassage}
      figures={turn?.figures}
      onFigures={turn ? (f) => conversation.setFigures(turn.id, f) : undefined}
    />
  );
}

/** What the conversation must say (a refused question, a turn not kept), dismissable. */
function ConversationNotice({ convo, onDismiss }: { convo: ConversationState; onDismiss: () => void }) {
  if (!convo.notice) return null;
  return (
    <p
      className={`notice${convo.notice.kind === 'warn' ? ' warn' : ''}`}
      role="status"
      data-testid="conversation-notice"
    >
      {convo.notice.text}{' '}
      <button type="button" className="dismiss" onClick={onDismiss} aria-label="Dismiss">
        ✕
      </button>
    </p>
  );
}

export function MainColumn(props: {
  controller: Controller;
  conversation: Conversation;
  services: AppServices;
  page: AppState;
  convo: ConversationState;
  initialQuestion: string;
  onShare: () => string;
  webgpu: WebGpuCheck | null;
  /** The models cannot be downloaded from this network. */
  unreachable: boolean;
  importError: string | null;
  /** A question was asked (what an earlier import said is over). */
  onAsked: () => void;
  onOpenPassage: OpenPassage;
}) {
  const { controller, conversation, services, page, convo } = props;
  const engine = useStore(services.engine ?? NO_ENGINE, services.engine?.get ?? NO_ENGINE.get);
  const libraryState = useStore(services.status, () => services.status.get().library.state);
  const busy = answering(convo, page.answer);
  return (
    <main id="main" className="center">
      <p className="tagline muted">Ask questions about your own documents. Nothing leaves this machine.</p>
      <AskBox
        initial={props.initialQuestion}
        busy={busy}
        evidenceOnly={page.evidenceOnly !== null}
        onAsk={(q) => {
          props.onAsked();
          void conversation.ask(q);
        }}
        onStop={controller.stop}
      />
      {services.storage && <StorageNotice plan={services.storage} openUrl={props.onShare} />}
      <Notices
        webgpu={props.webgpu}
        unreachable={props.unreachable}
        libraryOpen={libraryState === 'ready'}
        noWebGpu={noWebGpuPlan(engine?.choice.engine ?? 'auto')}
        onUseLlama={engine ? () => controller.change({ engine: { ...engine.choice, engine: 'wllama' } }) : undefined}
        evidenceOnly={page.evidenceOnly}
        pending={controller.pendingDecodeChanges()}
        busy={busy}
        onEvidenceOnly={controller.enterEvidenceOnly}
        onLeaveEvidenceOnly={controller.leaveEvidenceOnly}
        onRerun={() => void conversation.rerun()}
      />
      <ConversationNotice convo={convo} onDismiss={conversation.dismissNotice} />
      {props.importError && (
        <p className="error" role="alert" data-testid="import-error">
          {props.importError}
        </p>
      )}
      <ThreadView
        state={convo}
        conversation={conversation}
        busy={busy}
        rank={page.settings.rank}
        viewedAnswer={
          <ViewedAnswer page={page} convo={convo} conversation={conversation} onOpenPassage={props.onOpenPassage} />
        }
      />
    </main>
  );
}
