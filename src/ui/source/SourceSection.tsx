// The passage where it stands in its document, loaded on demand: the viewer (and pdf.js with
// it) is a chunk of its own, so the page's entry chunk does not grow.
import { lazy, Suspense, useContext } from 'react';
import type { Passage } from '../../core/ports';
import { SourceLoaderContext } from './SourceLoader';

const SourceView = lazy(() => import('./SourceView'));

export function SourceSection({ passage, segment }: { passage: Passage; segment: string }) {
  const load = useContext(SourceLoaderContext);
  return (
    <section className="source-section" aria-label="In the document">
      <Suspense fallback={<p className="muted">Opening the document…</p>}>
        <SourceView key={passage.id} passage={passage} segment={segment} load={load} />
      </Suspense>
    </section>
  );
}
