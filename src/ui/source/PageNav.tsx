// Previous / next page, and where the reader is.
export function PageNav(props: { label: string; index: number; count: number; onGo: (index: number) => void }) {
  return (
    <nav className="page-nav" aria-label="Pages">
      <button
        type="button"
        onClick={() => props.onGo(props.index - 1)}
        disabled={props.index <= 0}
        data-testid="page-prev"
      >
        ← Previous page
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
        Next page →
      </button>
    </nav>
  );
}
