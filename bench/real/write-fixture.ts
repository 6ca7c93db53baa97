// `npx tsx bench/real/write-fixture.ts`: writes test/fixtures/real/minilm-q8-vectors.bin, the small
// real-vector set CI grades the codes on (test/unit/vector/real-codes.test.ts): the first
// FIXTURE_PASSAGES passages of the real-text corpus and its first FIXTURE_QUESTIONS held-out
// questions (first sentences of documents not in the corpus), as the real all-MiniLM-L6-v2 q8
// embedded them (bench/real/embed-corpus.ts), each row in the int8 codec the indexes keep rows in
// (384 int8 and a float32 scale). Vectors only: no text of the documents is in the file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { int8Codec } from '../../src/vector/row-store';
import { realCorpusDir } from './corpus';
import { cachedPassageVectors, cachedQueryVectors, REAL_DIM } from './vector-file';

export const FIXTURE_PASSAGES = 2000;
export const FIXTURE_QUESTIONS = 300;
export const FIXTURE_FILE = 'test/fixtures/real/minilm-q8-vectors.bin';

const vs = cachedPassageVectors('q8', FIXTURE_PASSAGES);
const qs = cachedQueryVectors('q8');
if (!vs || vs.n < FIXTURE_PASSAGES || !qs || qs.n < FIXTURE_QUESTIONS)
  throw new Error(`embed the real corpus first (bench/real/embed-corpus.ts): ${realCorpusDir()}`);
const rb = int8Codec.rowBytes(REAL_DIM);
// u32 passages, u32 questions, u32 dim, then the passages' rows and the questions' rows.
const out = new Uint8Array(12 + (FIXTURE_PASSAGES + FIXTURE_QUESTIONS) * rb);
const view = new DataView(out.buffer);
view.setUint32(0, FIXTURE_PASSAGES, true);
view.setUint32(4, FIXTURE_QUESTIONS, true);
view.setUint32(8, REAL_DIM, true);
const rows = [
  ...Array.from({ length: FIXTURE_PASSAGES }, (_, i) => vs.row(i)),
  ...Array.from({ length: FIXTURE_QUESTIONS }, (_, i) => qs.row(i)),
];
rows.forEach((v, i) => int8Codec.encode(v, out.subarray(12 + i * rb, 12 + (i + 1) * rb)));
writeFileSync(join(import.meta.dirname, '../..', FIXTURE_FILE), out);
console.log(`wrote ${FIXTURE_FILE}: ${FIXTURE_PASSAGES} passages, ${FIXTURE_QUESTIONS} questions, ${out.length} bytes`);
