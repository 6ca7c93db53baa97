// The #/eval route: the evaluation page lives in src/ui/eval (engineer E).
export { default } from './eval/EvalPage';
