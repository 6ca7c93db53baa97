export { classifyRetrieval } from './action';
export { createCorrector, type CorrectorDeps } from './corrector';
export { refineKnowledge, type Refined, type ScoreFn } from './refine';
export { parseRewrite, rewritePrompt, rewriteQuery } from './rewrite';
export { normaliseSentence, splitSentences } from './sentences';
export { DEFAULT_CRAG_SETTINGS, resolveCragSettings, type CragSettings, type NoEvidencePolicy } from './settings';
export { decompose, recompose } from './strips';
