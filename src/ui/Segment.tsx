// One chosen segment: its text, citation, badges, and the "why" expansion.
import { useState } from 'react';
import type { Candidate, Ranking, ScoredCandidate } from '../core/types';
import { CritiqueBadges } from './Badges';
import { WhyPanel } from './WhyPanel';
import { AnswerText } from './answer/AnswerText';
import { citationLabel, placeLabel, PLACE_NOT_KNOWN } from '../core/source-location';

export function Citation({ candidate, onOpen }: { candidate: Candidate; onOpen: (c: Candidate) => void }) {
  if (!candidate.passage) {
    return (
      <span className="no-retrieval" data-testid="no-retrieval">
        written without retrieval
      </span>
    );
  }
  return (
    <button type="button" className="citation" data-testid="citation" onClick={() => onOpen(candidate)}>
      <span aria-hidden="true">¶ </span>
      {citationLabel(candidate.passage)}
      {placeLabel(candidate.passage) === PLACE_NOT_KNOWN && <span className="muted"> ({PLACE_NOT_KNOWN})</span>}
    </button>
  );
}

export function Segment(props: {
  depth: number;
  chosen: ScoredCandidate;
  siblings: Candidate[];
  ranking: Ranking;
  changed: boolean;
  onOpenPassage: (c: Candidate) => void;
}) {
  const [open, setOpen] = useState(false);
  const c = props.chosen.candidate;
  const panelId = `why-${c.id}`;
  return (
    <li
      className={`segment${props.changed ? ' changed' : ''}`}
      data-testid="segment"
      data-candidate-id={c.id}
      data-changed={props.changed ? 'true' : 'false'}
    >
      {/* A div: a code block (pre) may be in it. */}
      <div className="segment-text">
        {c.text ? (
          <AnswerText text={c.text} />
        ) : c.correction?.noEvidence === 'abstain' ? (
          <em data-testid="abstained-step">Abstained: no reliable evidence was found for this step.</em>
        ) : (
          <em>(empty segment)</em>
        )}
        {props.changed && <span className="changed-flag"> changed by the new weights</span>}
      </div>
      {c.problem && <p className="problem">Model output problem: {c.problem}</p>}
      {c.correction?.details && (
        <p className="correction">
          Retrieval correction ({c.correction.action}): {c.correction.details}
        </p>
      )}
      {c.retrieve.note && <p className="note">{c.retrieve.note}</p>}
      <div className="segment-meta">
        <Citation candidate={c} onOpen={props.onOpenPassage} />
        <CritiqueBadges candidate={c} />
        <button
          type="button"
          className="why"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          {open
            ? 'Hide why'
            : `Why this segment (${props.siblings.length} candidate${props.siblings.length === 1 ? '' : 's'})`}
        </button>
      </div>
      {open && (
        <WhyPanel
          id={panelId}
          siblings={props.siblings}
          ranking={props.ranking}
          chosenId={c.id}
          onOpenPassage={props.onOpenPassage}
        />
      )}
    </li>
  );
}
