// Documents: sample corpus, file picker, drag and drop, paste; list with
// passage counts; remove; ingestion progress.
import { memo, useRef, useState } from 'react';
import type { LibraryActions, LibraryDocView, LibraryViewState } from '../app/view/library-panel';
import { filterDocs, FIND_FROM, moreText } from '../app/view/doc-filter';
import { formatBytes } from '../app/view/progress';
import { KeepOriginalsSwitch, type KeepOriginals } from './source/KeepOriginals';
import { captureDrop } from '../library/drop';
import { OCR_DOWNLOAD_BYTES } from '../library/ocr/assets';
// Shown only after a batch of files: its code loads then (lazy-panels.tsx).
import { BatchReport } from './lazy-panels';
import { ProgressBar } from './ProgressBar';

const ACCEPT =
  '.pdf,.md,.markdown,.txt,.html,.htm,.xhtml,.docx,.epub,.png,.jpg,.jpeg,.webp,text/plain,text/markdown,text/html,application/pdf,application/epub+zip,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/png,image/jpeg,image/webp';

export function LibraryPanel(props: {
  view: LibraryViewState;
  actions: LibraryActions;
  now: number;
  originals?: KeepOriginals;
}) {
  const { view, actions } = props;
  const fileRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [pasteTitle, setPasteTitle] = useState('');
  const [pasteText, setPasteText] = useState('');
  const [pasteOpen, setPasteOpen] = useState(false);

  const onFiles = (list: FileList | null) => {
    // Reads the list before returning (the input may be cleared right after); the folder walker
    // (skipping what is not a document, reading image headers) loads on first use.
    const picked = Array.from(list ?? []);
    void import('../library/folder')
      .then(({ collectPicked }) => collectPicked(picked))
      .then(({ files, skipped }) => (files.length || skipped ? actions.addFiles(files, skipped) : undefined));
  };

  return (
    <aside className="panel library" aria-labelledby="library-heading" data-testid="library">
      <h2 id="library-heading">Library</h2>
      <section
        className={`dropzone${dragging ? ' dragging' : ''}`}
        aria-label="Add documents"
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const dropped = captureDrop(e.dataTransfer);
          void import('../library/folder')
            .then(({ walkDropped }) => walkDropped(dropped)())
            .then(({ files, skipped }) => (files.length || skipped ? actions.addFiles(files, skipped) : undefined));
        }}
      >
        <p>Drop files or folders here (PDF, Word, EPUB, Markdown, HTML, text), or</p>
        <p className="muted" data-testid="ocr-hint">
          Scanned PDFs and photos of pages (PNG, JPEG, WebP) are read by text recognition in your browser; the first
          scan downloads the recogniser ({formatBytes(OCR_DOWNLOAD_BYTES)}) once, and it is kept for offline use.
        </p>
        {props.originals && <KeepOriginalsSwitch {...props.originals} docs={view.docs} />}
        <button type="button" onClick={() => fileRef.current?.click()}>
          Choose files…
        </button>{' '}
        <button type="button" onClick={() => folderRef.current?.click()}>
          Choose a folder…
        </button>
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          accept={ACCEPT}
          onChange={(e) => {
            onFiles(e.target.files);
            e.target.value = '';
          }}
        />
        <input
          ref={folderRef}
          type="file"
          hidden
          data-testid="folder-input"
          // Not in React's types; every current browser supports it.
          {...{ webkitdirectory: '' }}
          onChange={(e) => {
            onFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </section>
      <details className="paste" open={pasteOpen} onToggle={(e) => setPasteOpen((e.target as HTMLDetailsElement).open)}>
        <summary>Paste text</summary>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!pasteText.trim()) return;
            void actions.addText(pasteTitle.trim() || 'Pasted text', pasteText).then(() => {
              setPasteText('');
              setPasteTitle('');
            });
          }}
        >
          <label htmlFor="paste-title">Title</label>
          <input
            id="paste-title"
            value={pasteTitle}
            onChange={(e) => setPasteTitle(e.target.value)}
            data-testid="paste-title"
          />
          <label htmlFor="paste-text">Text</label>
          <textarea
            id="paste-text"
            rows={5}
            value={pasteText}
            onChange={(e) => setPasteText(e.target.value)}
            data-testid="paste-text"
          />
          <button type="submit" disabled={!pasteText.trim()} data-testid="paste-add">
            Add to library
          </button>
        </form>
      </details>
      {view.jobs.length > 0 && (
        <div className="jobs" aria-live="polite">
          {view.jobs.map((j) => (
            <div key={j.id}>
              <ProgressBar progress={j} now={props.now} />
              {j.error && <p className="error">{j.error}</p>}
            </div>
          ))}
        </div>
      )}
      {view.busy && actions.stop && (
        <button type="button" data-testid="stop-batch" onClick={actions.stop}>
          Stop adding
        </button>
      )}
      {(view.reports ?? []).map((r) => (
        <BatchReport key={r.id} report={r} onDismiss={() => actions.dismissReport?.(r.id)} />
      ))}
      <div aria-live="polite">
        {view.messages.map((m) => (
          <div key={m.id} className={`message ${m.kind === 'error' ? 'error' : 'notice'}`}>
            <p role={m.kind === 'error' ? 'alert' : undefined}>{m.text}</p>
            <button
              type="button"
              className="dismiss"
              aria-label="Dismiss this message"
              onClick={() => actions.dismiss(m.id)}
            >
              ✕
            </button>
          </div>
        ))}
      </div>
      {!view.ready && <p className="muted">Opening the library…</p>}
      {view.ready && view.docs.length === 0 && (
        <p>
          The library is empty.{' '}
          <button type="button" onClick={() => void actions.loadSample()}>
            Load the sample documents
          </button>
        </p>
      )}
      <SamplesNote docs={view.docs} onRemoveSamples={actions.removeSamples} />
      <DocList docs={view.docs} onRemove={actions.remove} />
    </aside>
  );
}

// A large library re-renders only when its list changes, not on every progress tick; past a
// dozen documents it scrolls in its own box with a Find box, and renders a few hundred at most.
const DocList = memo(function DocList({
  docs,
  onRemove,
}: {
  docs: LibraryDocView[];
  onRemove: (id: string) => Promise<void>;
}) {
  const [query, setQuery] = useState('');
  const long = docs.length >= FIND_FROM;
  const found = long ? filterDocs(docs, query) : { shown: docs, matching: docs.length };
  const more = long ? moreText(found, docs.length, query) : null;
  return (
    <>
      {long && (
        <label className="doc-find">
          Find a document{' '}
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={`${docs.length.toLocaleString('en')} documents`}
            data-testid="doc-find"
          />
        </label>
      )}
      <ul
        className={long ? 'docs long' : 'docs'}
        data-testid="doc-list"
        {...(long ? { tabIndex: 0, 'aria-label': 'Documents in the library' } : {})}
      >
        {found.shown.map((d) => (
          <li key={d.id} data-testid="doc" data-doc-id={d.id} data-name={d.name}>
            <span className="doc-title">{d.title}</span>
            {d.sample && (
              <span className="sample-tag" data-testid="sample-tag">
                sample
              </span>
            )}
            <span className="muted">
              {' '}
              {d.passages} passage{d.passages === 1 ? '' : 's'}
              {d.bytes !== undefined ? ` · ${formatBytes(d.bytes)}` : ''}
              {d.originalBytes !== undefined ? ' · original kept' : ''}
            </span>
            {d.pending && (
              <span
                className="muted"
                data-testid="doc-pending"
                title="Found by its words until the embedding model loads; it is embedded then."
              >
                {' '}
                · not embedded yet
              </span>
            )}
            <button
              type="button"
              className="remove"
              aria-label={`Remove ${d.title}`}
              onClick={() => void onRemove(d.id)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {more && (
        <p className="muted" role="status" data-testid="doc-more">
          {more}
        </p>
      )}
    </>
  );
});

/** The site's sample documents are there to try the page with: said so, and cleared with one button. */
function SamplesNote({
  docs,
  onRemoveSamples,
}: {
  docs: LibraryDocView[];
  onRemoveSamples: (() => Promise<void>) | undefined;
}) {
  const samples = docs.filter((d) => d.sample).length;
  if (samples === 0) return null;
  return (
    <p className="samples-note" data-testid="samples-note">
      <span>
        {samples === docs.length ? 'These are' : 'The library includes'} {samples} sample document
        {samples === 1 ? '' : 's'} to try questions on; add your own above.
      </span>
      {onRemoveSamples && (
        <button type="button" onClick={() => void onRemoveSamples()} data-testid="remove-samples">
          Remove the samples
        </button>
      )}
    </p>
  );
}
