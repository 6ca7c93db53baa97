// The conversation on screen: every turn of the shown path, its versions (‹ 2/3 ›), the
// search query a follow-up was rewritten into (editable), and the full answer of the turn
// being viewed; earlier turns show their answer text and open in full on request.
import { useState, type ReactNode } from 'react';
import { siblingPosition, activePath, type Turn } from '../core/conversation';
import type { Conversation, ConversationState } from '../app/wiring/conversation';

function RewriteChip({ turn, disabled, onSearch }: { turn: Turn; disabled: boolean; onSearch: (q: string) => void }) {
  const [q, setQ] = useState(turn.searchQuery ?? turn.question);
  const id = `rewrite-${turn.id}`;
  return (
    <form
      className="rewrite-chip"
      data-testid="rewrite-chip"
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) onSearch(q.trim());
      }}
    >
      <label htmlFor={id}>{turn.rewrite ? 'Searched as' : 'Searched with'}</label>
      <input id={id} value={q} onChange={(e) => setQ(e.target.value)} data-testid="rewrite-input" maxLength={600} />
      <button type="submit" disabled={disabled || !q.trim() || q.trim() === (turn.searchQuery ?? '')}>
        Search again
      </button>
    </form>
  );
}

function EditForm({ turn, onSave, onCancel }: { turn: Turn; onSave: (q: string) => void; onCancel: () => void }) {
  const [q, setQ] = useState(turn.question);
  return (
    <form
      className="edit-question"
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) onSave(q.trim());
      }}
    >
      <label htmlFor={`edit-${turn.id}`}>Edit the question (the first version is kept)</label>
      <textarea
        id={`edit-${turn.id}`}
        rows={2}
        value={q}
        maxLength={2000}
        onChange={(e) => setQ(e.target.value)}
        data-testid="edit-input"
      />
      <span className="row">
        <button type="submit" disabled={!q.trim()} data-testid="edit-save">
          Ask this version
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}

export function ThreadView(props: {
  state: ConversationState;
  conversation: Conversation;
  busy: boolean;
  viewedAnswer: ReactNode;
}) {
  const { state, conversation, busy } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const thread = state.thread;
  if (!thread || thread.roots.length === 0) return <>{props.viewedAnswer}</>;
  const path = activePath(thread);
  return (
    <ol className="turns" aria-label="This conversation" data-testid="turns">
      {path.map((turn, i) => {
        const pos = siblingPosition(thread, turn.id);
        const viewed = turn.id === state.viewed;
        const pending = turn.id === state.running && state.rewriting;
        return (
          <li
            key={turn.id}
            className={`turn${viewed ? ' viewed' : ''}`}
            data-testid="turn"
            data-turn-id={turn.id}
            data-status={turn.status}
          >
            <div className="turn-head">
              <p className="turn-question">
                <span className="sr-only">Question {i + 1}: </span>
                {turn.question}
              </p>
              {pos.count > 1 && (
                <fieldset
                  className="versions inline-group"
                  aria-label={`Version ${pos.index} of ${pos.count}`}
                  data-testid="versions"
                >
                  <button
                    type="button"
                    onClick={() => conversation.step(turn.id, -1)}
                    disabled={busy || pos.index <= 1}
                    aria-label="Previous version"
                  >
                    ‹
                  </button>
                  <span data-testid="version-pos">
                    {pos.index}/{pos.count}
                  </span>
                  <button
                    type="button"
                    onClick={() => conversation.step(turn.id, 1)}
                    disabled={busy || pos.index >= pos.count}
                    aria-label="Next version"
                  >
                    ›
                  </button>
                </fieldset>
              )}
              <span className="turn-actions">
                <button type="button" onClick={() => setEditing(turn.id)} disabled={busy} data-testid="edit-question">
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
            {editing === turn.id && (
              <EditForm
                turn={turn}
                onCancel={() => setEditing(null)}
                onSave={(q) => {
                  setEditing(null);
                  void conversation.edit(turn.id, q);
                }}
              />
            )}
            {turn.parentId !== null && !pending && (
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
            {pending ? (
              <section className="answer" data-testid="answer" data-status="running" aria-busy="true">
                <p className="muted" aria-live="polite">
                  Rewriting the follow-up into a search query…
                </p>
              </section>
            ) : viewed ? (
              props.viewedAnswer
            ) : (
              <div className="turn-answer" data-testid="turn-answer">
                <p className="segment-text">
                  {turn.answerText || (turn.status === 'failed' ? turn.error : 'No answer was finished.')}
                </p>
                {turn.status === 'stopped' && <p className="note">Stopped before the end.</p>}
                <button
                  type="button"
                  onClick={() => conversation.view(turn.id)}
                  disabled={busy}
                  data-testid="view-turn"
                >
                  Show citations and scores
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
