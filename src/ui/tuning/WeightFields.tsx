// The critique weights and how the answer is chosen: a change re-ranks the stored answer at once,
// without a model call.
import type { FinalPick, RankSettings } from '../../core/types';
import { RANGES } from '../../app/persist/settings';
import { RadioGroup } from '../RadioGroup';
import { Slider } from '../Slider';

const FINAL_PICK_OPTIONS: { value: FinalPick; label: string }[] = [
  { value: 'any-finished', label: 'Best finished path (any length)' },
  { value: 'deepest-level', label: 'Best of the deepest level (reference code)' },
];

export function WeightFields(props: {
  rank: RankSettings;
  onRank: (rank: RankSettings) => void;
  /** How long the last weight change took to re-rank, when there was an answer to re-rank. */
  lastRerankMs: number | null;
}) {
  const { rank } = props;
  const w = (key: keyof RankSettings['weights']) => (v: number) =>
    props.onRank({ ...rank, weights: { ...rank.weights, [key]: v } });
  return (
    <fieldset>
      <legend>Critique weights (re-rank instantly)</legend>
      <Slider label="ISREL weight" value={rank.weights.rel} range={RANGES.weight} onChange={w('rel')} testId="w-rel" />
      <Slider label="ISSUP weight" value={rank.weights.sup} range={RANGES.weight} onChange={w('sup')} testId="w-sup" />
      <Slider label="ISUSE weight" value={rank.weights.use} range={RANGES.weight} onChange={w('use')} testId="w-use" />
      <Slider
        label="Sequence likelihood weight"
        value={rank.weights.seq}
        range={RANGES.seq}
        onChange={w('seq')}
        testId="w-seq"
      />
      <label className="check">
        <input
          type="checkbox"
          checked={rank.hardConstraints}
          data-testid="hard"
          onChange={(e) => props.onRank({ ...rank, hardConstraints: e.target.checked })}
        />
        Hard constraint: drop unsupported candidates
      </label>
      <RadioGroup
        legend="Answer chosen from"
        options={FINAL_PICK_OPTIONS}
        value={rank.finalPick ?? 'any-finished'}
        onChange={(finalPick) => props.onRank({ ...rank, finalPick })}
        testIdPrefix="pick-"
      />
      {props.lastRerankMs !== null && (
        <p className="muted hint" role="status" data-testid="rerank-time">
          Re-ranked in {props.lastRerankMs < 1 ? '<1' : Math.round(props.lastRerankMs)} ms, no model call.
        </p>
      )}
    </fieldset>
  );
}
