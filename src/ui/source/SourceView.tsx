// A passage where it stands in its document: the PDF page with the supporting sentence marked
// on its text layer, the scan with the recognised lines boxed, or the document's text around
// it. Falls back to the text when the original was not kept, and says why.
import { useEffect, useMemo, useState } from 'react';
import type { DocumentSource } from '../../app/view/library-panel';
import { pdfPageOf, sentenceInDocument } from '../../app/view/source-view';
import type { Passage } from '../../core/ports';
import { PLACE_NOT_KNOWN } from '../../core/source-location';
import { splitByRange, supportingSentence } from '../../app/view/highlight';
import type { SourceLoader } from './SourceLoader';
import './source.css';
import { PdfPageView } from './PdfPageView';
import { ScanImageView } from './ScanImageView';
import { TextContextView } from './TextContextView';
import { errorMessage } from '../../core/errors';

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; source: DocumentSource | undefined }
  | { state: 'error'; message: string };

export default function SourceView({
  passage,
  segment,
  load,
}: {
  passage: Passage;
  segment: string;
  load: SourceLoader | null;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    if (!load) {
      setLoaded({ state: 'ready', source: undefined });
      return;
    }
    load(passage.docId).then(
      (source) => live && setLoaded({ state: 'ready', source }),
      (e: unknown) => live && setLoaded({ state: 'error', message: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [load, passage.docId]);
  const sentence = useMemo(() => sentenceInDocument(passage, segment), [passage, segment]);
  // No copy kept here, but the site serves the original (a pre-built or sharded corpus written with --link-originals).
  const kept = loaded.state === 'ready' && loaded.source?.original;
  const site = useSiteFile(loaded.state === 'ready' && !kept ? passage.source?.url : undefined);

  if (loaded.state === 'loading' || site === 'loading') return <p className="muted">Opening the document…</p>;
  if (loaded.state === 'error') return <p className="error">The document could not be opened: {loaded.message}</p>;
  const source = loaded.source;
  const old = !passage.source && (
    <p className="muted" data-testid="place-unknown">
      Where in the document: {PLACE_NOT_KNOWN}.
    </p>
  );
  if (!source) {
    if (site && /\.pdf$/i.test(passage.source?.url ?? '')) {
      const text = passage.text;
      const r = supportingSentence(text, segment);
      return (
        <PdfPageView
          blob={site}
          firstPage={passage.source?.page ?? 1}
          sentence={r ? text.slice(r.start, r.end) : text}
          layout={undefined}
        />
      );
    }
    return <NotInLibrary passage={passage} segment={segment} />;
  }
  const { doc } = source;
  const original = source.original ?? (site ? { blob: site } : undefined);
  const fallback = !original && (
    <p className="muted" data-testid="no-original">
      {doc.origin === 'user'
        ? 'The original file was not kept (it was added before originals were kept, or with “keep original files” off): '
        : ''}
      showing the document’s text.
    </p>
  );
  const passageRange = { start: passage.start ?? sentence.start, end: passage.end ?? sentence.end };
  if (original && doc.format === 'pdf') {
    return (
      <>
        {old}
        <PdfPageView
          blob={original.blob}
          firstPage={pdfPageOf(passage, doc.layout, sentence)}
          sentence={doc.text.slice(sentence.start, sentence.end)}
          layout={doc.layout}
        />
      </>
    );
  }
  if (original && doc.format === 'image') {
    return (
      <>
        {old}
        <ScanImageView
          blob={original.blob}
          lines={doc.layout?.ocrLines?.[1] ?? []}
          sentence={doc.text.slice(sentence.start, sentence.end)}
        />
      </>
    );
  }
  return (
    <>
      {old}
      {fallback}
      <TextContextView
        text={doc.text}
        layout={doc.layout}
        paged={doc.format === 'pdf' || doc.format === 'image'}
        passage={passageRange}
        sentence={sentence}
      />
    </>
  );
}

/**
 * The original file at `url` on this site, fetched for the viewer: only from the page's own
 * origin (a corpus's address elsewhere is a link to follow, not a file to load); null when
 * there is none or it could not be fetched.
 */
function useSiteFile(url: string | undefined): Blob | null | 'loading' {
  const [file, setFile] = useState<{ url: string; blob: Blob | null } | null>(null);
  const target = siteHref(url);
  const href = target && new URL(target).origin === location.origin ? target : null;
  useEffect(() => {
    if (!href) return;
    let live = true;
    fetch(href)
      .then((r) => (r.ok ? r.blob() : null))
      .catch(() => null)
      .then((blob) => live && setFile({ url: href, blob }));
    return () => {
      live = false;
    };
  }, [href]);
  if (!href) return null;
  return file?.url === href ? file.blob : 'loading';
}

/** A passage of the site's corpus: its text, and the original on the site when the site serves it. */
function NotInLibrary({ passage, segment }: { passage: Passage; segment: string }) {
  const parts = splitByRange(passage.text, supportingSentence(passage.text, segment));
  const href = siteHref(passage.source?.url);
  return (
    <div data-testid="source-corpus">
      <p className="muted">This passage is from the site’s collection, not your library.</p>
      <p className="source-text">
        {parts.map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
      </p>
      {href && (
        <p>
          <a href={href} target="_blank" rel="noopener noreferrer" data-testid="source-link">
            Open the original file on the site
          </a>
        </p>
      )}
    </div>
  );
}

/** A corpus's link to an original as an http(s) address, or null (malformed, or another scheme). */
function siteHref(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, document.baseURI);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
