// Where documents come in: dropped files or folders, or the file and folder pickers. The folder
// walker (skipping what is not a document, reading image headers) loads on first use.
import { useRef, useState } from 'react';
import type { LibraryActions } from '../../app/view/library-panel';
import type { LibraryDocView } from '../../app/state/library';
import { formatBytes } from '../../app/view/progress';
import { captureDrop } from '../../library/drop';
import type { CollectedFiles } from '../../library/folder';
import { OCR_DOWNLOAD_BYTES } from '../../library/ocr/assets';
import { KeepOriginalsSwitch, type KeepOriginals } from '../source/KeepOriginals';

const ACCEPT =
  '.pdf,.md,.markdown,.txt,.html,.htm,.xhtml,.docx,.epub,.png,.jpg,.jpeg,.webp,text/plain,text/markdown,text/html,application/pdf,application/epub+zip,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/png,image/jpeg,image/webp';

/** A file input, hidden: its button is a plain button beside the drop text. */
function HiddenPicker(props: {
  pick: React.RefObject<HTMLInputElement | null>;
  folder: boolean;
  onFiles: (list: FileList | null) => void;
}) {
  return (
    <input
      ref={props.pick}
      type="file"
      hidden
      {...(props.folder
        ? // Not in React's types; every current browser supports it.
          { 'data-testid': 'folder-input', webkitdirectory: '' }
        : { 'data-testid': 'file-input', multiple: true, accept: ACCEPT })}
      onChange={(e) => {
        props.onFiles(e.target.files);
        e.target.value = '';
      }}
    />
  );
}

export function DropZone(props: { actions: LibraryActions; docs: LibraryDocView[]; originals?: KeepOriginals }) {
  const { actions } = props;
  const fileRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const add = ({ files, skipped }: CollectedFiles) =>
    files.length || skipped ? actions.addFiles(files, skipped) : undefined;
  // Reads the list before returning (the input may be cleared right after).
  const onFiles = (list: FileList | null) => {
    const picked = Array.from(list ?? []);
    void import('../../library/folder').then(({ collectPicked }) => collectPicked(picked)).then(add);
  };
  return (
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
        void import('../../library/folder').then(({ walkDropped }) => walkDropped(dropped)()).then(add);
      }}
    >
      {/* The pickers come first: on a phone they are on the first screen, whatever notices stand above them. */}
      <p>Drop files or folders here (PDF, Word, EPUB, Markdown, HTML, text), or</p>
      <p className="pickers">
        <button type="button" onClick={() => fileRef.current?.click()}>
          Choose files…
        </button>{' '}
        <button type="button" onClick={() => folderRef.current?.click()}>
          Choose a folder…
        </button>
      </p>
      <HiddenPicker pick={fileRef} folder={false} onFiles={onFiles} />
      <HiddenPicker pick={folderRef} folder onFiles={onFiles} />
      <p className="muted" data-testid="ocr-hint">
        Scanned PDFs and photos of pages (PNG, JPEG, WebP) are read by text recognition in your browser; the first scan
        downloads the recogniser ({formatBytes(OCR_DOWNLOAD_BYTES)}) once, and it is kept for offline use.
      </p>
      {props.originals && <KeepOriginalsSwitch {...props.originals} docs={props.docs} />}
    </section>
  );
}
