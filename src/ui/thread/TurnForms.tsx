// The two forms a turn opens: a new version of its question, and the search words of a follow-up.
import { useState } from 'react';
import type { Turn } from '../../core/conversation';

/** The search query a follow-up was rewritten into, editable: a new search makes a new version. */
export function RewriteChip({
  turn,
  disabled,
  onSearch,
}: {
  turn: Turn;
  disabled: boolean;
  onSearch: (q: string) => void;
}) {
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

/** A new version of the question (the first is kept). */
export function EditForm({
  turn,
  onSave,
  onCancel,
}: {
  turn: Turn;
  onSave: (q: string) => void;
  onCancel: () => void;
}) {
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
