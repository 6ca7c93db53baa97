// The "keep original files" setting, with what the kept files take.
import { formatBytes } from '../../app/view/progress';
import type { LibraryDocView } from '../../app/state/library';

export interface KeepOriginals {
  keep: boolean;
  onKeep: (on: boolean) => void;
  /** The library lives in memory (a frame without storage): originals last for the visit only. */
  forVisitOnly?: boolean;
}

export function KeepOriginalsSwitch(props: KeepOriginals & { docs: LibraryDocView[] }) {
  const total = props.docs.reduce((n, d) => n + (d.originalBytes ?? 0), 0);
  return (
    <p className="keep-originals">
      <label>
        <input
          type="checkbox"
          checked={props.keep}
          onChange={(e) => props.onKeep(e.target.checked)}
          data-testid="keep-originals"
        />{' '}
        Keep original files, to show a citation on its page
      </label>
      <span className="muted" data-testid="originals-size">
        {' '}
        ({total > 0 ? `${formatBytes(total)} kept` : 'none kept yet'}
        {props.forVisitOnly ? '; for this visit only, as this frame has no storage' : ''}; off: citations show the
        document’s text)
      </span>
    </p>
  );
}
