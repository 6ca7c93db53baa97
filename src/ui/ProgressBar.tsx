import { describeProgress } from '../app/view/progress';
import type { Progress } from '../app/state/worker-status';

export function ProgressBar({ progress, now }: { progress: Progress; now: number }) {
  const text = describeProgress({ ...progress, now });
  return (
    <div className="progress" data-testid="progress">
      <span className="progress-label">{progress.label}</span>
      {progress.total ? (
        <progress
          max={progress.total}
          value={Math.min(progress.loaded, progress.total)}
          aria-label={progress.label}
          aria-valuetext={text}
        />
      ) : (
        <progress aria-label={progress.label} aria-valuetext={text} />
      )}
      <span className="progress-text muted">{text}</span>
    </div>
  );
}
