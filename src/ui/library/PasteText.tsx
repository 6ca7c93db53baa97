// Pasted text as a document: a title and the text, folded until opened.
import { useState } from 'react';
import type { LibraryActions } from '../../app/view/library-panel';

export function PasteText({ onAdd }: { onAdd: LibraryActions['addText'] }) {
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  return (
    <details className="paste" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>Paste text</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) return;
          void onAdd(title.trim() || 'Pasted text', text).then(() => {
            setText('');
            setTitle('');
          });
        }}
      >
        <label htmlFor="paste-title">Title</label>
        <input id="paste-title" value={title} onChange={(e) => setTitle(e.target.value)} data-testid="paste-title" />
        <label htmlFor="paste-text">Text</label>
        <textarea
          id="paste-text"
          rows={5}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="paste-text"
        />
        <button type="submit" disabled={!text.trim()} data-testid="paste-add">
          Add to library
        </button>
      </form>
    </details>
  );
}
