// The documents in the library, and the note on the site's sample documents.
import { memo, useState } from 'react';
import type { LibraryDocView } from '../../app/state/library';
import { filterDocs, FIND_FROM, moreText } from '../../app/view/doc-filter';
import { formatBytes } from '../../app/view/progress';
import { docsCount } from '../../app/view/library-panel';

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
            placeholder={docsCount(docs)}
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
                title="Found by its words until its passages are embedded (after the batch, or once the embedding model loads)."
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

/** The sample note and the list, as the panel shows them under what is being added. */
export function LibraryDocs(props: {
  docs: LibraryDocView[];
  onRemove: (id: string) => Promise<void>;
  onRemoveSamples: (() => Promise<void>) | undefined;
}) {
  return (
    <>
      <SamplesNote docs={props.docs} onRemoveSamples={props.onRemoveSamples} />
      <DocList docs={props.docs} onRemove={props.onRemove} />
    </>
  );
}
