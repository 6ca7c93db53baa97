// Previous / next page (or part, for a document without pages), and where the reader is.
export function PageNav(props: {
  label: string;
  index: number;
  count: number;
  onGo: (index: number) => void;
  /** What one step is: a page of the document, or a part of a document that has no pages. */
  unit?: 'page' | 'part';
}) {
  const unit = props.unit ?? 'page';
  return (
    <nav className="page-nav" aria-label={unit === 'page' ? 'Pages' : 'Parts'}>
      <button
        type="button"
        onClick={() => props.onGo(props.index - 1)}
        disabled={props.index <= 0}
        data-testid="page-prev"
      >
        ← Previous {unit}
      </button>
      <span aria-live="polite" data-testid="page-label">
        {props.label}
      </span>
      <button
        type="button"
        onClick={() => props.onGo(props.index + 1)}
        disabled={props.index >= props.count - 1}
        data-testid="page-next"
      >
        Next {unit} →
      </button>
    </nav>
  );
}
