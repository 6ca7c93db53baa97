// Scale on real embeddings (`npm run bench -- scale --real`): the real-text corpus's cached
// all-MiniLM-L6-v2 vectors (bench/real/embed-corpus.ts; every passage it has embedded so far, or
// BENCH_REAL_N), held-out real questions (first sentences of documents left out of the corpus),
// and the labelled question set where there is one (test/fixtures/real/questions.json or
// $SELFRAG_QUESTIONS: questions people asked about the Rust book and Debian manuals, embedded here
// with the same variant), against exact search over the same vectors:
//   compact  the compact index before (sign codes) and now (RaBitQ), scale-compact.ts;
//   sharded  corpora with sign codes and RaBitQ codes, the depth chosen on held-out passages,
//            pseudo-questions (the default) or 200 held-out questions, scale-sharded.ts;
//   codes    recall against bytes for each code: every row ranked by it (codes.ts), and a corpus
//            written with it across the writer's ladder of depths (sharded-codes.ts).
// BENCH_REAL_PARTS (default compact,sharded,codes; also choices: the index command's --bits and
// --recall on the default corpus) picks parts. Baseline in the same run: synthetic
// embedding-like vectors (bench/scale/vectors.ts) at the same count, through the same indexes.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CodeChoice, DEFAULT_CODES } from '../../scripts/sharded/write-sharded';
import { FlatIndex } from '../../src/vector/flat-index';
import { describe, embeddingModel, embeddingVectors } from '../scale/vectors';
import { compareCodes, RESCORE_DEPTHS } from './codes';
import { CORPUS_FILES, readJsonl, realCorpusDir, type CorpusPassage, type CorpusQuery } from './corpus';
import { createRealEmbedder } from './real-embedder';
import { compactTable, measureCompact } from './scale-compact';
import { measureSharded, shardedTable, type ShardedSet, type ShardedVariant } from './scale-sharded';
import { codeCorpusTable, compareCorpusCodes } from './sharded-codes';
import { cachedPassageVectors, cachedQueryVectors, REAL_DIM, type CachedVectors } from './vector-file';

const K = 10;
const f3 = (x: number) => x.toFixed(3);
const parts = new Set((process.env.BENCH_REAL_PARTS ?? 'compact,sharded,codes').split(','));

type Question = ShardedSet['questions'][number];

/** Each question's exact top 10 over the set (row numbers) and its 10th score. */
function withTruth(n: number, row: (i: number) => Float32Array, qs: Array<{ vector: Float32Array; text: string }>) {
  const flat = new FlatIndex(REAL_DIM);
  flat.add(
    Array.from({ length: n }, (_, i) => String(i)),
    Array.from({ length: n }, (_, i) => row(i)),
  );
  return qs.map((q): Question => {
    const hits = flat.search(q.vector, K);
    return { ...q, truth: new Set(hits.map((h) => Number(h.id))), tenth: hits[hits.length - 1]!.score };
  });
}

/** The labelled question set's questions, where this checkout has one (it is another branch's fixture). */
function labelledQuestions(): string[] {
  const path = process.env.SELFRAG_QUESTIONS ?? join(import.meta.dirname, '../../test/fixtures/real/questions.json');
  if (!existsSync(path)) return [];
  const v = JSON.parse(readFileSync(path, 'utf8')) as { questions?: Array<{ question: string }> };
  return (v.questions ?? []).map((q) => q.question);
}

/** The codes the sharded rows are written with: the writer's default, or BENCH_REAL_CODES (JSON, e.g. {"kind":"rabitq","bits":1,"subBits":4}). */
const codes: CodeChoice = JSON.parse(process.env.BENCH_REAL_CODES ?? 'null') ?? DEFAULT_CODES;
const SHARDED_VARIANTS: ShardedVariant[] = [
  {
    name: 'sign codes (format 5); depth on held-out passages (the writer before)',
    codes: { kind: 'sign' },
    calibrate: 'passages',
  },
  { name: 'RaBitQ (format 6); depth on held-out passages', codes, calibrate: 'passages' },
  { name: 'RaBitQ (format 6); depth on pseudo-questions (**the default**)', codes, calibrate: 'default' },
  {
    name: 'RaBitQ (format 6); depth on 200 held-out questions (`--questions`)',
    codes,
    calibrate: { questions: 200 },
  },
];

export async function realScale(): Promise<void> {
  const limit = Number(process.env.BENCH_REAL_N ?? Infinity);
  const vs: CachedVectors | null = cachedPassageVectors('q8', limit);
  const qs = cachedQueryVectors('q8');
  if (!vs || !qs || vs.n < 1000) {
    console.log(
      `!!! no real-corpus vectors cached in ${realCorpusDir()}: build them with \`npx tsx bench/real/build-corpus.ts\` then \`npx tsx bench/real/embed-corpus.ts --variant q8 --limit 100000\` (needs \`npm run models -- --real\`).`,
    );
    return;
  }
  const passages = await readJsonl<CorpusPassage>(join(realCorpusDir(), CORPUS_FILES.passages), vs.n);
  const queryTexts = await readJsonl<CorpusQuery>(join(realCorpusDir(), CORPUS_FILES.queries));
  const sources = new Map<string, number>();
  for (const p of passages) sources.set(p.source, (sources.get(p.source) ?? 0) + 1);
  const embedder = createRealEmbedder('q8');
  const dir = mkdtempSync(join(tmpdir(), 'scale-real-'));
  try {
    const labelled = labelledQuestions();
    const labelledVectors = labelled.length ? await embedder.embedQueries(labelled) : [];
    const t0 = performance.now();
    const realQs = withTruth(
      vs.n,
      (i) => vs.row(i),
      Array.from({ length: qs.n }, (_, i) => ({ vector: qs.row(i), text: queryTexts[i]?.text ?? '' })),
    );
    const labelledQs = withTruth(
      vs.n,
      (i) => vs.row(i),
      labelled.map((text, i) => ({ vector: labelledVectors[i]!, text })),
    );
    console.log(`[scale --real] exact top ${K}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const real: ShardedSet = {
      name: 'real MiniLM q8',
      dim: REAL_DIM,
      n: vs.n,
      row: (i) => vs.row(i),
      meta: (i) => {
        const p = passages[i]!;
        return { id: String(i), docId: p.docId, title: p.title, text: p.text, index: p.index };
      },
      questions: realQs,
      embedQuestions: (texts) => embedder.embedQueries(texts),
    };
    const model = embeddingModel(REAL_DIM, 1);
    const syn = embeddingVectors(model, vs.n, REAL_DIM);
    const synQ = embeddingVectors(model, qs.n, REAL_DIM);
    const synthetic: ShardedSet = {
      name: 'synthetic embedding-like',
      dim: REAL_DIM,
      n: vs.n,
      row: (i) => syn.row(i),
      meta: (i) => ({
        id: String(i),
        docId: `d${Math.floor(i / 10)}`,
        title: `Document ${Math.floor(i / 10)}`,
        text: `passage ${i}`,
        index: i % 10,
      }),
      questions: withTruth(
        vs.n,
        (i) => syn.row(i),
        Array.from({ length: qs.n }, (_, i) => ({ vector: synQ.row(i), text: '' })),
      ),
    };
    const header = `\nREAL EMBEDDINGS: ${vs.n} passages of real text (${[...sources].map(([s, n]) => `${n} ${s}`).join(', ')}) embedded by the REAL all-MiniLM-L6-v2 (q8); ${qs.n} held-out questions (first sentences of documents not in the corpus, q8)${labelled.length ? `; ${labelled.length} labelled questions (people's questions about the Rust book and Debian manuals, q8)` : ''}. Baseline: synthetic embedding-like vectors, same count, same run. recall@10 against exact search over the same vectors, counted strictly.\n`;
    console.log(header);
    if (parts.has('compact')) {
      const rows = [...measureCompact(synthetic, dir), ...measureCompact(real, dir)];
      console.log(`\n${compactTable(rows)}\n`);
    }
    if (parts.has('sharded')) {
      const rows = [
        ...(await measureSharded(
          synthetic,
          SHARDED_VARIANTS.filter((v) => v.calibrate !== 'default'),
          dir,
        )),
        ...(await measureSharded(real, SHARDED_VARIANTS, dir)),
      ];
      if (labelledQs.length)
        rows.push(
          ...(await measureSharded(
            { ...real, name: 'real MiniLM q8, labelled questions', questions: labelledQs },
            SHARDED_VARIANTS.filter((v) => v.calibrate === 'default'),
            dir,
          )),
        );
      console.log(`\n${shardedTable(rows)}\n`);
    }
    if (parts.has('choices')) {
      // What a site owner's two flags buy on real text: --bits 1 against the default 2, and
      // --recall 0.9 against 0.95, each the writer's default corpus (pseudo-questions); the
      // default's own row is the baseline, in the same run.
      const rabitq = (bits: number): CodeChoice => ({ kind: 'rabitq', bits, subBits: 4 });
      const choices: ShardedVariant[] = [
        { name: '2 bits, --recall 0.95 (**the default**)', codes: rabitq(2), calibrate: 'default' },
        { name: '`--bits 1`, --recall 0.95', codes: rabitq(1), calibrate: 'default' },
        { name: '2 bits, `--recall 0.9`', codes: rabitq(2), calibrate: 'default', targetRecall: 0.9 },
        { name: '`--bits 1 --recall 0.9`', codes: rabitq(1), calibrate: 'default', targetRecall: 0.9 },
      ];
      console.log(`\n${shardedTable(await measureSharded(real, choices, dir))}\n`);
    }
    if (parts.has('codes')) {
      const Q = Number(process.env.BENCH_REAL_CODE_QUESTIONS ?? 200);
      const codeRows = compareCodes({ ...real, queries: realQs.slice(0, Q).map((q) => q.vector) });
      console.log(
        `\nEvery row ranked by each code, the best R scored on int8 (${Q} held-out questions; recall@10, strict / near-ties):\n`,
      );
      console.log(`| code | code bytes a row | ${RESCORE_DEPTHS.map((r) => `R = ${r}`).join(' | ')} |`);
      console.log(`|---|---:|${RESCORE_DEPTHS.map(() => '---:').join('|')}|`);
      for (const r of codeRows)
        console.log(
          `| ${r.code} | ${r.bytes} | ${r.recall.map((x, i) => `${f3(x)} / ${f3(r.tolerant[i]!)}`).join(' | ')} |`,
        );
      const corpusRows = await compareCorpusCodes({ ...real, queries: realQs.slice(200).map((q) => q.vector) });
      console.log(
        `\nA corpus written with each code, every depth of the writer's ladder replayed for ${realQs.length - 200} held-out questions (vector bytes a question: centroid blocks, lists, rows):\n`,
      );
      console.log(codeCorpusTable(corpusRows));
    }
    for (const [name, v] of [
      ['synthetic', syn],
      ['real', { dim: REAL_DIM, ...vs }],
    ] as const) {
      const d = describe(v, 20);
      console.log(
        `note (${name}): mean cosine of random pairs ${f3(d.randomPair)}, of a row's nearest neighbour ${f3(d.nearest)}`,
      );
    }
  } finally {
    await embedder.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
