// The #/eval route: the evaluation page lives in src/ui/eval-page, its harness in src/eval-runner.
export { default } from './eval-page/EvalPage';
