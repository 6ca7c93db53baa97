// `npx tsx bench/real/build-corpus.ts`: (re)builds the real-text corpus's passages and queries.
import { buildCorpus } from './corpus';
await buildCorpus();
