import { useEffect, useState } from 'react';

export function AskBox(props: {
  initial: string;
  busy: boolean;
  evidenceOnly: boolean;
  onAsk: (q: string) => void;
  onStop: () => void;
}) {
  const [q, setQ] = useState(props.initial);
  useEffect(() => setQ(props.initial), [props.initial]);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    // Empty, or asked while an answer is being written: the conversation answers with a message instead of mixing.
    props.onAsk(q.trim());
    // The question now heads its turn; the box is ready for the follow-up. A refused one stays to be asked again.
    if (q.trim() && !props.busy) setQ('');
  };
  return (
    <search aria-label="Ask a question">
      <form className="ask" onSubmit={submit}>
        <label htmlFor="question">Question</label>
        <div className="ask-row">
          <textarea
            id="question"
            value={q}
            rows={2}
            maxLength={2000}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) submit(e);
            }}
            placeholder="Ask about your documents, e.g. How long should sourdough rise?"
          />
          {props.busy ? (
            <button type="button" className="stop" onClick={props.onStop} data-testid="stop">
              ■ Stop
            </button>
          ) : (
            <button type="submit" disabled={!q.trim()} data-testid="ask">
              {props.evidenceOnly ? 'Find passages' : 'Ask'}
            </button>
          )}
        </div>
        <p className="muted hint">Enter to ask, Shift+Enter for a new line.</p>
      </form>
    </search>
  );
}
