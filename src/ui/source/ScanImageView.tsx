// A scanned page or photo shown as its image, the recognised lines of the supporting
// sentence boxed. The image comes from the library's own copy (a blob: URL), never the network.
import { useEffect, useRef, useState } from 'react';
import { linesHolding } from '../../app/view/source-view';
import type { OcrLine } from '../../core/source-location';

export function ScanImageView({ blob, lines, sentence }: { blob: Blob; lines: OcrLine[]; sentence: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  if (!url) return null;
  return (
    <div className="scan-view" data-testid="source-scan">
      <img src={url} alt="The scanned page" onLoad={() => setDrawn(true)} />
      {drawn && <LineBoxes lines={lines} sentence={sentence} drawn={drawn} />}
    </div>
  );
}

/**
 * Boxes over the lines holding the sentence, placed as fractions of the page so they follow its
 * size; once the page is drawn (it has its height) the first box is scrolled into view, since a
 * sentence low on a page is otherwise boxed out of sight.
 */
export function LineBoxes({ lines, sentence, drawn }: { lines: OcrLine[]; sentence: string; drawn: boolean }) {
  const first = useRef<HTMLSpanElement>(null);
  const held = linesHolding(lines, sentence);
  useEffect(() => {
    if (drawn) first.current?.scrollIntoView({ block: 'center' });
  }, [drawn, lines, sentence]);
  return (
    <>
      {held.map((i, n) => {
        const [x0, y0, x1, y1] = lines[i]!.box;
        return (
          <span
            key={i}
            ref={n === 0 ? first : undefined}
            className="line-box"
            data-testid="line-box"
            title={lines[i]!.text}
            style={{
              left: `${x0 * 100}%`,
              top: `${y0 * 100}%`,
              width: `${(x1 - x0) * 100}%`,
              height: `${(y1 - y0) * 100}%`,
            }}
          />
        );
      })}
    </>
  );
}
