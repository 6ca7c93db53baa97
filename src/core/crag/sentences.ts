// CRAG's strips and RAGAS's context relevance split with the answer path's one splitter.
export { normaliseSentence, sentenceSpans, splitSentences, type SentenceSpan } from '../sentences';
