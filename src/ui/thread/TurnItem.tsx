// One turn of the thread shown: its question with its versions (‹ 2/3 ›) and actions, the forms it
// opens, and its answer (in full when viewed, its text otherwise).
import type { ReactNode } from 'react';
import { siblingPosition, type Thread, type Turn } from '../../core/conversation';
import type { Conversation } from '../../app/wiring/conversation';
import { pastAnswerText } from '../../app/view/past-answer';
import { AnswerText } from '../answer/AnswerText';
import type { RankSettings } from '../../core/types';
import { EditForm, RewriteChip } from './TurnForms';

function Versions(props: { thread: Thread; turn: Turn; busy: boolean; onStep: (delta: -1 | 1) => void }) {
  const pos = siblingPosition(props.thread, props.turn.id);
  if (pos.count <= 1) return null;
  return (
    <fieldset
      className="versions inline-group"
      aria-label={`Version ${pos.index} of ${pos.count}`}
      data-testid="versions"
    >
      <button
        type="button"
        onClick={() => props.onStep(-1)}
        disabled={props.busy || pos.index <= 1}
        aria-label="Previous version"
      >
        ‹
      </button>
      <span data-testid="version-pos">
        {pos.index}/{pos.count}
      </span>
      <button
        type="button"
        onClick={() => props.onStep(1)}
        disabled={props.busy || pos.index >= pos.count}
        aria-label="Next version"
      >
        ›
      </button>
    </fieldset>
  );
}

/** A turn not viewed: the text of its answer (or why it has none), and a way to open it in full. */
function TurnAnswer(props: { turn: Turn; rank: RankSettings; busy: boolean; onView: () => void }) {
  const { turn } = props;
  return (
    <div className="turn-answer" data-testid="turn-answer">
      <div className="segment-text">
        <AnswerText text={pastAnswerText(turn, props.rank)} />
      </div>
      {turn.status === 'stopped' && <p className="note">Stopped before the end.</p>}
      <button type="button" onClick={props.onView} disabled={props.busy} data-testid="view-turn">
        Show citations and scores
      </button>
    </div>
  );
}

export function TurnItem(props: {
  thread: Thread;
  turn: Turn;
  /** Its place on the path, from 1. */
  n: number;
  viewed: boolean;
  /** Its follow-up is being rewritten into a search query. */
  rewriting: boolean;
  busy: boolean;
  editing: boolean;
  onEditing: (on: boolean) => void;
  conversation: Conversation;
  viewedAnswer: ReactNode;
  /** The weights of now, which pick a past answer's segments. */
  rank: RankSettings;
}) {
  const { turn, busy, conversation } = props;
  return (
    <li
      className={`turn${props.viewed ? ' viewed' : ''}`}
      data-testid="turn"
      data-turn-id={turn.id}
      data-status={turn.status}
    >
      <div className="turn-head">
        <p className="turn-question">
          <span className="sr-only">Question {props.n}: </span>
          {turn.question}
        </p>
        <Versions thread={props.thread} turn={turn} busy={busy} onStep={(d) => conversation.step(turn.id, d)} />
        <span className="turn-actions">
          <button type="button" onClick={() => props.onEditing(true)} disabled={busy} data-testid="edit-question">
            Edit
          </button>
          <button
            type="button"
            onClick={() => void conversation.regenerate(turn.id)}
            disabled={busy}
            data-testid="regenerate"
          >
            Regenerate
          </button>
        </span>
      </div>
      {props.editing && (
        <EditForm
          turn={turn}
          onCancel={() => props.onEditing(false)}
          onSave={(q) => {
            props.onEditing(false);
            void conversation.edit(turn.id, q);
          }}
        />
      )}
      {/* What was searched is said only where it was not the question as typed (a standalone question is searched as itself). */}
      {turn.parentId !== null && !props.rewriting && (turn.searchQuery ?? turn.question) !== turn.question && (
        <RewriteChip
          key={turn.searchQuery}
          turn={turn}
          disabled={busy}
          onSearch={(q) => void conversation.editQuery(turn.id, q)}
        />
      )}
      {(turn.droppedTurns ?? 0) > 0 && (
        <p className="note" data-testid="dropped-turns">
          {turn.droppedTurns === 1
            ? 'The oldest earlier turn was'
            : `The ${turn.droppedTurns} oldest earlier turns were`}{' '}
          left out of the model's context to fit its window.
        </p>
      )}
      {props.rewriting ? (
        <section className="answer" data-testid="answer" data-status="running" aria-busy="true">
          <p className="muted" aria-live="polite">
            Rewriting the follow-up into a search query…
          </p>
        </section>
      ) : props.viewed ? (
        props.viewedAnswer
      ) : (
        <TurnAnswer turn={turn} rank={props.rank} busy={busy} onView={() => conversation.view(turn.id)} />
      )}
    </li>
  );
}
