// Real tier: the labelled real question set (test/fixtures/real/: 207 questions over the Rust
// book and Debian's PDF and HTML manuals) against the app's own reading, chunking and search
// (words + meaning, no re-rank) with the real all-MiniLM-L6-v2 (q8, as the page runs it on
// WASM), in Node. The same measurement as `npm run bench -- real-retrieval` and `-- threads`
// (docs/retrieval.md); the thresholds sit a little under what those measured. Passage vectors
// are cached per exact text (bench/real-set/vector-cache.ts), so only a first run embeds them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRanks } from '../../bench/real-retrieval.bench';
import { createRealEmbedder } from '../../bench/real/real-embedder';
import { realLibrary } from '../../bench/real-set/library';
import { realSearcher, type Searcher } from '../../bench/real-set/searcher';
import { asTurn, at3, followTurn, threadRanks } from '../../bench/real-set/thread-runs';
import type { LoadedEmbedder } from '../../workers/evaluator/embedder';
import { realModelsAvailable } from './available';
import { missingDocPackages, questionSet } from './question-set';

/** Missing documents fail in CI (bash .ci/run installs them); elsewhere the suite says loudly that it was skipped. */
function documentsHere(): boolean {
  const missing = missingDocPackages();
  if (!missing.length) return true;
  const message = `documents of the real question set are missing here: apt-get install ${missing.join(' ')}`;
  if (process.env.CI) throw new Error(message);
  console.warn(`\n${'!'.repeat(100)}\n!!! SKIPPED: ${message}\n${'!'.repeat(100)}\n`);
  return false;
}

const { questions, followUps } = questionSet();

describe.runIf(realModelsAvailable('retrieval on the labelled real set') && documentsHere())(
  'retrieval on the labelled real question set, real MiniLM q8',
  () => {
    let embedder: LoadedEmbedder;
    let search: Searcher;
    beforeAll(async () => {
      const lib = await realLibrary();
      embedder = createRealEmbedder('q8');
      search = await realSearcher(lib.passages, embedder, 'all-MiniLM-L6-v2-q8');
    }, 3_600_000);
    afterAll(async () => {
      await embedder?.dispose();
    });

    it('finds the answer in the top 3 for each question asked in a fresh thread', async () => {
      const ranks = await freshRanks(search, questions);
      expect(at3(ranks)).toBeGreaterThanOrEqual(FRESH_AT3);
    }, 600_000);

    it('asked one after another in one thread, unrelated questions lose nothing with the search plan; joining them loses much', async () => {
      const r = await threadRanks(search, questions.map(asTurn));
      // Measured: 0.802 against 0.812 in fresh threads (the goal: lose at most 0.01).
      expect(at3(r.plan)).toBeGreaterThanOrEqual(at3(r.fresh) - 0.015);
      expect(at3(r.plan)).toBeGreaterThanOrEqual(FRESH_AT3);
      // What evidence-only mode did before: every question joined with up to three earlier ones.
      expect(at3(r.today)).toBeLessThan(at3(r.fresh) - 0.2);
    }, 600_000);

    it('a follow-up right after its question keeps what joining the two gives it', async () => {
      const plan: number[] = [];
      const joined: number[] = [];
      for (const f of followUps) {
        const first = questions.find((q) => q.id === f.firstId)!;
        const r = await threadRanks(search, [asTurn(first), followTurn(f)]);
        plan.push(r.plan[1]!);
        joined.push(r.today[1]!);
      }
      // Measured: 0.679 both ways; one question of 28 of slack for the embedder's last digits.
      expect(at3(plan)).toBeGreaterThanOrEqual(at3(joined) - 1 / followUps.length);
    }, 600_000);
  },
);

/** Measured on this set: 0.812 (docs/retrieval.md), less a margin. */
const FRESH_AT3 = 0.78;
