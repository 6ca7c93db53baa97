// Self-CRAG's settings in the tuning panel. Like the other decode settings they need a new
// answer; a pair of thresholds that contradict is refused with the reason, nothing is lost.
import { useState } from 'react';
import type { NoEvidencePolicy, StripPool } from '../../core/crag/settings';
import { RANGES, type CragChoice } from '../../app/persist/settings';
import { RadioGroup } from '../RadioGroup';
import { Slider } from '../Slider';

const NO_EVIDENCE: { value: NoEvidencePolicy; label: string }[] = [
  { value: 'answer-without-retrieval', label: 'Answer without retrieval (marked as such)' },
  { value: 'abstain', label: 'Abstain: say no reliable evidence was found' },
];

const STRIP_POOL: { value: StripPool; label: string }[] = [
  { value: 'per-passage', label: 'Best strips of each passage' },
  { value: 'across-passages', label: 'Best strips over all passages (reference code)' },
];

export function CragSettingsFields(props: {
  crag: CragChoice;
  corrective: boolean;
  onCrag: (c: CragChoice) => string | null;
}) {
  const { crag } = props;
  // A refusal is about the settings it was refused against; once they change (another edit, a reset) it is stale.
  const [refusal, setRefusal] = useState<{ message: string; against: CragChoice } | null>(null);
  const problem = refusal?.against === crag ? refusal.message : null;
  const set =
    <K extends keyof CragChoice>(key: K) =>
    (v: CragChoice[K]) => {
      const message = props.onCrag({ ...crag, [key]: v });
      setRefusal(message ? { message, against: crag } : null);
    };
  return (
    <fieldset data-testid="crag-settings">
      <legend>Corrective retrieval settings (needs a new answer)</legend>
      {!props.corrective && (
        <p className="muted hint">Used when corrective retrieval (Self-CRAG) is switched on above.</p>
      )}
      <Slider
        label="Upper threshold (Correct above)"
        value={crag.upper}
        range={RANGES.cragThreshold}
        onChange={set('upper')}
        testId="crag-upper"
        hint="A retrieval is Correct when some passage's relevance is above this."
      />
      <Slider
        label="Lower threshold (Incorrect below)"
        value={crag.lower}
        range={RANGES.cragThreshold}
        onChange={set('lower')}
        testId="crag-lower"
        hint="A retrieval is Incorrect when every passage is below this; between the two it is Ambiguous."
      />
      {problem && (
        <p className="error" role="alert" data-testid="crag-problem">
          {problem}
        </p>
      )}
      <Slider
        label="Strip threshold"
        value={crag.stripThreshold}
        range={RANGES.cragThreshold}
        onChange={set('stripThreshold')}
        testId="crag-strip"
        hint="Knowledge strips (a few sentences of a passage) scoring below this are dropped."
      />
      <Slider
        label="Sentences per strip"
        value={crag.sentencesPerStrip}
        range={RANGES.sentencesPerStrip}
        onChange={set('sentencesPerStrip')}
        testId="crag-sentences"
      />
      <RadioGroup
        legend="Top strips kept from"
        options={STRIP_POOL}
        value={crag.stripPool}
        onChange={set('stripPool')}
        testIdPrefix="crag-pool-"
      />
      <RadioGroup
        legend="When no reliable evidence is found"
        options={NO_EVIDENCE}
        value={crag.noEvidence}
        onChange={set('noEvidence')}
        testIdPrefix="crag-noevidence-"
      />
      <label className="check">
        <input
          type="checkbox"
          checked={crag.externalEnabled}
          data-testid="crag-external"
          onChange={(e) => set('externalEnabled')(e.target.checked)}
        />
        Also search Wikipedia when the library has no good evidence
      </label>
      <p className="muted hint">
        This sends keywords from your question to wikipedia.org, outside this machine. It only works online; while
        offline or switched off, nothing is sent.
      </p>
    </fieldset>
  );
}
