// The kept threads, newest first: open, rename, delete, start a new one, export the one
// shown (Markdown, JSON) and import a JSON export.
import { useEffect, useRef, useState } from 'react';
import type { ConversationState } from '../../app/wiring/conversation';
import type { ThreadActions } from '../../app/wiring/thread-actions';

function ThreadItem(props: { id: string; title: string; turns: number; current: boolean; actions: ThreadActions }) {
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(props.title);
  const nameInput = useRef<HTMLInputElement>(null);
  // The rename field takes the focus the Rename button had.
  useEffect(() => {
    if (renaming) nameInput.current?.focus();
  }, [renaming]);
  return (
    <li data-testid="thread" data-thread-id={props.id} className={props.current ? 'current' : undefined}>
      {renaming ? (
        <form
          className="rename"
          onSubmit={(e) => {
            e.preventDefault();
            props.actions.rename(props.id, name);
            setRenaming(false);
          }}
        >
          <label className="sr-only" htmlFor={`rename-${props.id}`}>
            New name for the thread
          </label>
          <input
            id={`rename-${props.id}`}
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
            data-testid="rename-input"
            ref={nameInput}
          />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <button
            type="button"
            className="thread-open"
            aria-current={props.current ? 'true' : undefined}
            onClick={() => props.actions.open(props.id)}
            data-testid="thread-open"
          >
            {props.title}
          </button>
          <span className="muted thread-count">{props.turns === 1 ? '1 turn' : `${props.turns} turns`}</span>
          <span className="thread-actions">
            <button
              type="button"
              onClick={() => (setName(props.title), setRenaming(true))}
              aria-label={`Rename “${props.title}”`}
            >
              Rename
            </button>
            {confirming ? (
              <>
                <button
                  type="button"
                  className="danger"
                  onClick={() => props.actions.remove(props.id)}
                  data-testid="thread-delete-confirm"
                >
                  Delete for good
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Keep
                </button>
              </>
            ) : (
              <button
                type="button"
                onClick={() => setConfirming(true)}
                aria-label={`Delete “${props.title}”`}
                data-testid="thread-delete"
              >
                Delete
              </button>
            )}
          </span>
        </>
      )}
    </li>
  );
}

export function ThreadList({ state, actions }: { state: ConversationState; actions: ThreadActions }) {
  const current = state.thread?.id ?? null;
  const hasTurns = state.thread !== null && state.thread.roots.length > 0;
  return (
    <section className="panel threads" aria-labelledby="threads-heading" data-testid="threads">
      <h2 id="threads-heading">Threads</h2>
      <div className="thread-tools">
        <button type="button" onClick={actions.newThread} data-testid="new-thread">
          New thread
        </button>
        <button type="button" onClick={actions.exportMarkdown} disabled={!hasTurns} data-testid="export-md">
          Export Markdown
        </button>
        <button type="button" onClick={actions.exportJson} disabled={!hasTurns} data-testid="export-json">
          Export JSON
        </button>
        <label className="import">
          <span>Import JSON</span>
          <input
            type="file"
            accept="application/json,.json"
            data-testid="import-json"
            onChange={(e) => {
              const f = e.currentTarget.files?.[0];
              if (f) actions.importFile(f);
              e.currentTarget.value = '';
            }}
          />
        </label>
      </div>
      {state.threads.length === 0 ? (
        <p className="muted hint">Your questions and answers are kept here as threads.</p>
      ) : (
        <ul className="thread-list" data-testid="thread-list">
          {state.threads.map((t) => (
            <ThreadItem
              key={t.id}
              id={t.id}
              title={t.title}
              turns={t.turnCount}
              current={t.id === current}
              actions={actions}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
