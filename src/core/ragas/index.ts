export { answerRelevance, cosine } from './answer-relevance';
export { contextRelevance } from './context-relevance';
export { evaluateAnswer, type RagasOptions, type RagasPorts } from './evaluate';
export { faithfulness, parseVerdicts } from './faithfulness';
export * from './types';
