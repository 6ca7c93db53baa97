// The #/eval route: the evaluation page lives in src/ui/eval (engineer E).
export default function EvalRoute() {
  return <p>The evaluation page is not part of this build yet.</p>;
}
