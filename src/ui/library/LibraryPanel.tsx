// The library panel: adding documents (drop, pick, paste, the sample corpus), what is being added,
// and the documents kept, each with its passage count and a way to remove it.
import type { LibraryActions } from '../../app/view/library-panel';
import type { LibraryViewState } from '../../app/state/library';
import type { KeepOriginals } from '../source/KeepOriginals';
// The list, what is being added and the paste form load just after the first paint (lazy-panels.tsx).
import { LibraryActivity, LibraryDocs, PasteText } from '../lazy-panels';
import { DropZone } from './DropZone';

export function LibraryPanel(props: {
  view: LibraryViewState;
  actions: LibraryActions;
  now: number;
  originals?: KeepOriginals;
}) {
  const { view, actions } = props;
  return (
    <aside className="panel library" aria-labelledby="library-heading" data-testid="library">
      <h2 id="library-heading">Library</h2>
      <DropZone actions={actions} docs={view.docs} {...(props.originals ? { originals: props.originals } : {})} />
      <PasteText onAdd={actions.addText} />
      <LibraryActivity view={view} actions={actions} now={props.now} />
      {!view.ready && <p className="muted">Opening the library…</p>}
      {view.ready && view.docs.length === 0 && (
        <p>
          The library is empty.{' '}
          <button type="button" onClick={() => void actions.loadSample()}>
            Load the sample documents
          </button>
        </p>
      )}
      <LibraryDocs docs={view.docs} onRemove={actions.remove} onRemoveSamples={actions.removeSamples} />
    </aside>
  );
}
