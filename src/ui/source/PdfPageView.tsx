// A PDF page drawn by pdf.js from the kept original, the supporting sentence marked on its
// text layer (or, on a scanned page, the recognised lines boxed), with previous / next page.
import { useEffect, useRef, useState } from 'react';
import { itemRanges, pdfPageLabel, type ItemRange } from '../../app/view/source-view';
import type { DocLayout } from '../../core/source-location';
import { openPdf, type OpenedPdf } from '../../app/browser/pdf-page';
import { LineBoxes } from './ScanImageView';
import { PageNav } from './PageNav';
import { errorMessage } from '../../core/errors';

/**
 * Marks the sentence's characters in one text-layer span: the whole span when it holds only the
 * sentence, else its text split around an inner marked span (text nodes only, never markup), so a
 * line shared with another sentence marks only the supporting one.
 */
function markRange(span: HTMLElement, r: ItemRange): void {
  const text = span.textContent ?? '';
  if (r.start <= 0 && r.end >= text.length) {
    span.classList.add('highlight');
    return;
  }
  const mark = document.createElement('span');
  mark.className = 'highlight part';
  mark.textContent = text.slice(r.start, r.end);
  span.replaceChildren(
    document.createTextNode(text.slice(0, r.start)),
    mark,
    document.createTextNode(text.slice(r.end)),
  );
}

export function PdfPageView(props: { blob: Blob; firstPage: number; sentence: string; layout: DocLayout | undefined }) {
  const [pdf, setPdf] = useState<OpenedPdf | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(props.firstPage);
  const [marked, setMarked] = useState<number | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const opened = useRef(performance.now());
  // The page is drawn to the frame's width, and again when it changes (a phone turned, a window resized).
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const f = frame.current;
    if (!f) return;
    const fit = () => setWidth(Math.max(200, Math.min(900, Math.floor(f.clientWidth / 10) * 10)));
    fit();
    const watch = new ResizeObserver(fit);
    watch.observe(f);
    return () => watch.disconnect();
  }, []);

  useEffect(() => {
    let live = true;
    let doc: OpenedPdf | null = null;
    openPdf(props.blob).then(
      (d) => {
        doc = d;
        if (live) setPdf(d);
        else d.close();
      },
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
      doc?.close();
    };
  }, [props.blob]);

  const scanned = props.layout?.ocrLines?.[page];
  useEffect(() => {
    if (!pdf || !width || !canvas.current || !layer.current || !frame.current) return;
    let live = true;
    setMarked(null);
    pdf.show(page, canvas.current, layer.current, width, !scanned).then(
      ({ items, spans }) => {
        if (!live) return;
        const hits = itemRanges(items, props.sentence);
        for (const r of hits) if (spans[r.item]) markRange(spans[r.item]!, r);
        setMarked(hits.length);
        spans[hits[0]?.item ?? -1]?.scrollIntoView({ block: 'center' });
        // Time from opening the viewer to the first page drawn, for the measurements in docs/.
        if (frame.current && !frame.current.dataset.firstShownMs)
          frame.current.dataset.firstShownMs = String(Math.round(performance.now() - opened.current));
      },
      (e: unknown) => {
        if (live && !(e instanceof Error && e.name === 'RenderingCancelledException')) setError(errorMessage(e));
      },
    );
    return () => {
      live = false;
    };
  }, [pdf, page, width, props.sentence, scanned]);

  if (error) return <p className="error">The PDF could not be shown: {error}</p>;
  return (
    <div className="pdf-view" data-testid="source-pdf">
      {pdf && (
        <PageNav
          label={pdfPageLabel(page, pdf.numPages, pdf.labels)}
          index={page - 1}
          count={pdf.numPages}
          onGo={(i) => setPage(i + 1)}
        />
      )}
      <div className="pdf-frame" ref={frame} data-page={page} data-marked={marked ?? undefined} data-testid="pdf-frame">
        <div className="pdf-page">
          <canvas ref={canvas} />
          <div className="textLayer" ref={layer} />
          {scanned && marked !== null && (
            <LineBoxes lines={scanned} sentence={props.sentence} drawn={marked !== null} />
          )}
        </div>
      </div>
      {!pdf && <p className="muted">Drawing the page…</p>}
    </div>
  );
}
