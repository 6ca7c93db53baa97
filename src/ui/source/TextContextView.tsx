// The document's text around the passage, a page (or a stretch) at a time, scrolled to the
// supporting sentence. Text is rendered as text: an HTML document shows its words, never its markup.
import { useEffect, useMemo, useRef, useState } from 'react';
import { pageIndexAt, pagePieces, textPages } from '../../app/view/source-view';
import type { DocLayout } from '../../core/source-location';
import type { TextRange } from '../../app/view/highlight';
import { PageNav } from './PageNav';

export function TextContextView(props: {
  text: string;
  layout: DocLayout | undefined;
  paged: boolean;
  passage: TextRange;
  sentence: TextRange;
}) {
  const pages = useMemo(() => textPages(props.text, props.layout), [props.text, props.layout]);
  const home = pageIndexAt(pages, props.sentence.start);
  const [index, setIndex] = useState(home);
  const mark = useRef<HTMLElement>(null);
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    // Scrolls the text box only, not the page behind the dialog.
    const m = mark.current;
    const b = box.current;
    if (m && b) b.scrollTop = m.offsetTop - b.offsetTop - b.clientHeight / 3;
  }, [index]);
  const page = pages[index];
  if (!page) return null;
  const pieces = pagePieces(props.text, page, props.passage, props.sentence);
  const label = props.paged
    ? `Page ${page.number} of ${pages[pages.length - 1]?.number ?? pages.length}`
    : `Part ${index + 1} of ${pages.length}`;
  return (
    <div className="source-text-view" data-testid="source-text">
      <PageNav label={label} index={index} count={pages.length} onGo={setIndex} unit={props.paged ? 'page' : 'part'} />
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard (axe: scrollable-region-focusable) */}
      <section className="source-text" ref={box} tabIndex={0} aria-label={label}>
        {pieces.map((p, i) =>
          p.kind === 'sentence' ? (
            <mark key={i} ref={mark}>
              {p.text}
            </mark>
          ) : (
            <span key={i} className={p.kind === 'passage' ? 'source-passage' : undefined}>
              {p.text}
            </span>
          ),
        )}
      </section>
    </div>
  );
}
