// The labelled real question set holds what its users (the retrieval and answer benchmarks, the
// real tier) rely on: every evidence string is in its document, once, in every copy of it on this
// machine (rustup's Rust book and Debian's rust-doc both, where both exist), as the app extracts
// the text (src/library/parse: htmlparser2 for HTML, pdfjs for PDF); every evidence holds a gold
// answer; ids, splits, counts and threads are as docs/testing.md describes.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  containsGold,
  docCopies,
  documentText,
  type DocKind,
  evidenceCount,
  evidenceIn,
  expandCandidate,
  missingDocPackages,
  normalise,
  questionSet,
  resolveDoc,
} from './question-set';

const set = questionSet();
const words = (s: string) => s.trim().split(/\s+/).length;

describe('matching rule', () => {
  it('finds a gold answer across case, curly quotes, dashes and line breaks', () => {
    expect(containsGold('Run\n  `Cargo   CHECK` first', ['cargo check'])).toBe(true);
    expect(containsGold('Rust’s “Rc<T>” type', ['rust\'s "rc<t>"'])).toBe(true);
    expect(containsGold('pages 10–12', ['10-12'])).toBe(true);
    expect(containsGold('the de\ufb01nition', ['definition'])).toBe(true);
  });

  it('matches whole words where the gold begins or ends with one, plurals included', () => {
    expect(containsGold('It has a value', ['as'])).toBe(false);
    expect(containsGold('rename it with the as keyword', ['as'])).toBe(true);
    expect(containsGold('call enumerate() on it', ['enum'])).toBe(false);
    expect(containsGold('define an enum', ['enum'])).toBe(true);
    expect(containsGold('about 30 times slower', ['3'])).toBe(false);
    expect(containsGold('opt-level = 3.', ['3'])).toBe(true);
    expect(containsGold('it prevents data races', ['data race'])).toBe(true);
    expect(containsGold('put them in boxes', ['Box'])).toBe(true);
    expect(containsGold('clone it with Rc::clone', ['Rc'])).toBe(true);
    expect(containsGold('cargo test -- --include-ignored', ['--ignored'])).toBe(false);
    expect(containsGold('cargo test -- --ignored', ['--ignored'])).toBe(true);
  });

  it('does not find what is not there, and an empty gold matches nothing', () => {
    expect(containsGold('Pass it up with the ? operator', ['question mark'])).toBe(false);
    expect(containsGold('cargo build', ['cargo check', 'rustc'])).toBe(false);
    expect(containsGold('anything', ['', '  '])).toBe(false);
    expect(containsGold('anything', [])).toBe(false);
  });

  it('counts evidence in a passage after the same normalisation', () => {
    const passage = 'A channel is said to be closed if either the transmitter\nor receiver half is dropped.';
    expect(evidenceIn(passage, 'either the transmitter or receiver half is DROPPED')).toBe(true);
    expect(evidenceIn(passage, 'the receiver half is dropped')).toBe(false);
    expect(evidenceCount('a b. a b.', 'A B')).toBe(2);
    expect(evidenceCount('text', '')).toBe(0);
    expect(normalise('  Tom’s\u00a0Obvious —  Language ')).toBe("tom's obvious - language");
  });
});

describe('document paths', () => {
  it('expands * to every matching directory and finds the first existing candidate', () => {
    const root = mkdtempSync(join(tmpdir(), 'qset-'));
    for (const t of ['b-toolchain', 'a-toolchain', 'c-empty']) mkdirSync(join(root, t, 'book'), { recursive: true });
    writeFileSync(join(root, 'a-toolchain/book/ch.html'), '<p>a</p>');
    writeFileSync(join(root, 'b-toolchain/book/ch.html'), '<p>b</p>');
    expect(expandCandidate(`${root}/*/book/ch.html`)).toEqual([
      join(root, 'a-toolchain/book/ch.html'),
      join(root, 'b-toolchain/book/ch.html'),
    ]);
    const docs = {
      chapter: {
        kind: 'rust-book' as const,
        package: 'rust-doc',
        candidates: [`${root}/*/book/ch.html`, '/nope/ch.html'],
      },
    };
    expect(resolveDoc('chapter', docs)).toBe(join(root, 'a-toolchain/book/ch.html'));
    expect(docCopies('chapter', docs)).toHaveLength(2);
  });

  it('names the apt package to install when no copy exists', () => {
    const docs = { manual: { kind: 'debian-pdf' as const, package: 'libfoo-doc', candidates: ['/nope/foo.pdf'] } };
    expect(() => resolveDoc('manual', docs)).toThrow(
      /No copy of "manual".*\/nope\/foo\.pdf.*apt-get install libfoo-doc/,
    );
    expect(() => resolveDoc('unknown', docs)).toThrow(/not a document of test\/fixtures\/real\/docs\.json/);
  });

  it('lists each package to install once, for the documents that have no copy here (what .ci/run installs)', () => {
    const here = join(mkdtempSync(join(tmpdir(), 'qset-')), 'manual.html');
    writeFileSync(here, '<p>manual</p>');
    const docs = {
      a: { kind: 'debian-pdf' as const, package: 'libfoo-doc', candidates: ['/nope/a.pdf'] },
      b: { kind: 'debian-pdf' as const, package: 'libfoo-doc', candidates: ['/nope/b.pdf'] },
      c: { kind: 'debian-html' as const, package: 'bar', candidates: ['/nope/c.html', here] },
      d: { kind: 'debian-html' as const, package: 'aaa', candidates: ['/nope/d.html'] },
    };
    expect(missingDocPackages(docs)).toEqual(['aaa', 'libfoo-doc']);
    expect(missingDocPackages({ c: docs.c })).toEqual([]);
  });
});

describe('the labelled real question set', () => {
  const { questions, docs, followUps, threads } = set;
  const byKind = (k: DocKind) => questions.filter((q) => q.kind === k);

  it('has the counts the benchmarks need: 100+ questions, 55+ on the Rust book over 25+ chapters, 20+ per Debian kind', () => {
    expect(questions.length).toBeGreaterThanOrEqual(100);
    expect(byKind('rust-book').length).toBeGreaterThanOrEqual(55);
    expect(new Set(byKind('rust-book').map((q) => q.doc)).size).toBeGreaterThanOrEqual(25);
    expect(byKind('debian-pdf').length).toBeGreaterThanOrEqual(20);
    expect(byKind('debian-html').length).toBeGreaterThanOrEqual(20);
    expect(followUps.length).toBeGreaterThanOrEqual(20);
    expect(threads.length).toBeGreaterThanOrEqual(5);
  });

  it('has unique ids across questions, follow-ups and threads', () => {
    const ids = [...questions, ...followUps, ...threads].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('splits by the fixed rule (1st, 4th, 7th … of each kind is dev), about a third dev', () => {
    for (const kind of ['rust-book', 'debian-pdf', 'debian-html'] as const) {
      const qs = byKind(kind);
      qs.forEach((q, i) => expect([q.id, q.split]).toEqual([q.id, i % 3 === 0 ? 'dev' : 'test']));
      const dev = qs.filter((q) => q.split === 'dev').length / qs.length;
      expect(dev).toBeGreaterThan(0.3);
      expect(dev).toBeLessThan(0.37);
    }
  });

  it('keeps gold answers short (1–6 words) and evidence a sentence or phrase (10–40 words) that holds one of them', () => {
    for (const r of [...questions, ...followUps]) {
      expect(r.answers.length, r.id).toBeGreaterThan(0);
      for (const a of r.answers) expect([r.id, a, words(a) >= 1 && words(a) <= 6]).toEqual([r.id, a, true]);
      expect([r.id, words(r.evidence)]).toEqual([r.id, Math.min(40, Math.max(10, words(r.evidence)))]);
      expect([r.id, containsGold(r.evidence, r.answers)]).toEqual([r.id, true]);
    }
  });

  it('names a document of docs.json of the same kind for every record, and docs.json lists exactly those', () => {
    const used = new Set([...questions, ...followUps].map((r) => r.doc));
    expect(new Set(Object.keys(docs))).toEqual(used);
    for (const q of questions) expect([q.id, docs[q.doc]?.kind]).toEqual([q.id, q.kind]);
    for (const d of Object.values(docs)) {
      expect(d.candidates.length).toBeGreaterThan(0);
      expect(d.package).toMatch(/^[a-z0-9][a-z0-9.+-]+$/);
    }
  });

  it('threads its follow-ups on real questions, each follow-up right after its first, 4–6 turns a thread', () => {
    const questionIds = new Map(questions.map((q) => [q.id, q]));
    const followIds = new Map(followUps.map((f) => [f.id, f]));
    for (const f of followUps) expect([f.id, questionIds.get(f.firstId)?.question]).toEqual([f.id, f.first]);
    for (const t of threads) {
      expect(t.turns.length, t.id).toBeGreaterThanOrEqual(4);
      expect(t.turns.length, t.id).toBeLessThanOrEqual(6);
      t.turns.forEach((turn, i) => {
        const f = followIds.get(turn);
        if (f) expect([t.id, turn, t.turns[i - 1]]).toEqual([t.id, turn, f.firstId]);
        else expect(questionIds.has(turn), `${t.id}: ${turn}`).toBe(true);
      });
    }
  });
});

/** Missing documents fail in CI (bash .ci/run installs them); elsewhere the check says loudly that it was skipped. */
function documentsHere(): boolean {
  const missing = Object.keys(set.docs).filter((k) => docCopies(k).length === 0);
  if (!missing.length) return true;
  const packages = [...new Set(missing.map((k) => set.docs[k]!.package))].join(' ');
  const message = `${missing.length} documents of the real question set are missing here (${missing.slice(0, 3).join(', ')}…). Install them with \`apt-get install ${packages}\`.`;
  if (process.env.CI) throw new Error(message);
  console.warn(`\n${'!'.repeat(100)}\n!!! SKIPPED: ${message}\n${'!'.repeat(100)}\n`);
  return false;
}

describe.runIf(documentsHere())('the real question set against the documents on this machine', () => {
  it('finds every evidence string exactly once in every copy of its document, as the app extracts it', async () => {
    const records = [...set.questions, ...set.followUps];
    const problems: string[] = [];
    const checked: Record<string, number> = {};
    for (const key of Object.keys(set.docs)) {
      const mine = records.filter((r) => r.doc === key);
      for (const path of docCopies(key)) {
        const text = await documentText(path);
        checked[set.docs[key]!.kind] = (checked[set.docs[key]!.kind] ?? 0) + 1;
        for (const r of mine) {
          const n = evidenceCount(text, r.evidence);
          if (n !== 1) problems.push(`${r.id}: evidence found ${n} times in ${path}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every document was read at least once; the Rust book in each copy present (rustup's toolchains, Debian's rust-doc).
    expect(checked['debian-pdf']).toBe(Object.values(set.docs).filter((d) => d.kind === 'debian-pdf').length);
    expect(checked['rust-book']).toBeGreaterThanOrEqual(
      Object.values(set.docs).filter((d) => d.kind === 'rust-book').length,
    );
    console.info(`real question set: evidence checked in ${JSON.stringify(checked)} document copies`);
  }, 300_000);
});
