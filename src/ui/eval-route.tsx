// The #/eval route: the evaluation page lives in src/ui/eval, its harness in src/eval.
export { default } from './eval/EvalPage';
