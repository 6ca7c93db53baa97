import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../../../../src/library/lexical/lexical-index';
import { tokenize, TOKENIZER_VERSION } from '../../../../src/library/lexical/tokenize';
import { labelledSet } from '../../../../bench/retrieval/labelled-set';
import { embeddingText } from '../../../../src/library/ingest';

const { passages, questions } = labelledSet();
const docs = passages.map((p) => ({ id: p.id, text: embeddingText(p) }));
const probes = questions.map((q) => q.question);
const results = (ix: LexicalIndex) => probes.map((q) => ix.search(q, 10));

describe('tokenize', () => {
  it('keeps an identifier whole and also indexes its parts, lower-cased, without function words', () => {
    expect(tokenize('How do I fix ERR_QX_7731 in v2.3.1?')).toEqual(['fix', 'err_qx_7731', 'err', 'qx', '7731', 'v2.3.1', 'v2', '3', '1']);
    expect(tokenize('The XK-900, not the XK-901.')).toEqual(['xk-900', 'xk', '900', 'xk-901', 'xk', '901']);
    expect(tokenize('... — !')).toEqual([]);
  });
});

describe('LexicalIndex', () => {
  it('finds the one passage holding a rare identifier first, among passages worded alike', () => {
    const ix = new LexicalIndex();
    ix.add(docs);
    for (const q of questions.filter((x) => x.kind === 'identifier')) {
      expect(ix.search(q.question, 3)[0]?.id, q.question).toBe(q.gold);
    }
  });

  it('adds incrementally: a passage already indexed is not tokenised again', () => {
    const ix = new LexicalIndex();
    expect(ix.add(docs.slice(0, 100))).toBe(100);
    expect(ix.add(docs.slice(50, 150))).toBe(50);
    expect(ix.add([docs[0]!, docs[0]!])).toBe(0);
    expect(ix.size()).toBe(150);
  });

  it('after removals, searches exactly like a fresh build of what is left, and so does its reloaded snapshot', async () => {
    const incremental = new LexicalIndex();
    incremental.add(docs.slice(0, 300));
    incremental.add(docs.slice(300));
    const gone = docs.filter((_, i) => i % 3 === 0).map((d) => d.id);
    expect(incremental.remove([...gone, 'not-there#0'])).toBe(gone.length);
    const left = docs.filter((_, i) => i % 3 !== 0);
    const fresh = new LexicalIndex();
    fresh.add(left);
    const snap = await incremental.snapshot();
    const reloaded = LexicalIndex.fromSnapshot(JSON.parse(JSON.stringify(snap)))!;
    const expected = results(fresh);
    // Removed passages never come back, and scores (not only orders) agree.
    expect(expected.flat().some((h) => gone.includes(h.id))).toBe(false);
    const close = (a: ReturnType<typeof results>, b: ReturnType<typeof results>) =>
      a.forEach((hs, i) => {
        expect(hs.map((h) => h.id), probes[i]).toEqual(b[i]!.map((h) => h.id));
        hs.forEach((h, j) => expect(h.score).toBeCloseTo(b[i]![j]!.score, 9));
      });
    close(results(incremental), expected);
    close(results(reloaded), expected);
    expect(reloaded.size()).toBe(left.length);
    expect(reloaded.has(gone[0]!)).toBe(false);
    expect(reloaded.isDirty()).toBe(false);
  });

  it('reconciles with the library: drops ids it no longer holds and names the ones it lacks', () => {
    const ix = new LexicalIndex();
    ix.add(docs.slice(0, 10));
    const keep = new Set(docs.slice(5, 15).map((d) => d.id));
    expect(ix.retain(keep)).toBe(5);
    expect(ix.missing([...keep])).toEqual(docs.slice(10, 15).map((d) => d.id));
  });

  it('refuses a snapshot made by another tokenizer version, so it is rebuilt rather than mismatched', async () => {
    const ix = new LexicalIndex();
    ix.add(docs.slice(0, 5));
    const snap = await ix.snapshot();
    expect(LexicalIndex.fromSnapshot({ ...snap, tokenizer: TOKENIZER_VERSION + 1 })).toBeNull();
    expect(LexicalIndex.fromSnapshot(snap)?.size()).toBe(5);
  });

  it('marks itself dirty only when its contents change', async () => {
    const ix = new LexicalIndex();
    expect(ix.isDirty()).toBe(false);
    ix.add(docs.slice(0, 2));
    expect(ix.isDirty()).toBe(true);
    await ix.snapshot();
    ix.add(docs.slice(0, 2));
    ix.remove(['nope']);
    expect(ix.isDirty()).toBe(false);
  });
});
