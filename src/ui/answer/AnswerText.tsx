// An answer's text with its fenced code shown as code: the same for a finished segment and a
// candidate still streaming. Every part is a text node (app/view/code-fences.ts); the parts of one
// text have no identity but their place, hence the index keys.
import { fencedParts } from '../../app/view/code-fences';

export function AnswerText({ text }: { text: string }) {
  return (
    <>
      {fencedParts(text).map((p, i) =>
        p.code ? (
          <pre key={i} className="answer-code" data-testid="answer-code" {...(p.lang ? { 'data-lang': p.lang } : {})}>
            <code>{p.text}</code>
          </pre>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
