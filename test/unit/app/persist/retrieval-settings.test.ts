import { describe, expect, it } from 'vitest';
import { decodeChanges, defaultSettings, sanitizeSettings } from '../../../../src/app/persist/settings';
import { readUrlState, writeUrlState } from '../../../../src/app/persist/url-state';
import { BGE_EN_QUERY, BGE_ZH_QUERY, embedderPrefixes } from '../../../../src/evaluator/config';

describe('the retrieval setting', () => {
  it('defaults to words and meaning together, re-ranked by the cross-encoder', () => {
    expect(defaultSettings().retrieval).toEqual({ search: 'both', rerank: true, reranker: 'cross-encoder' });
  });

  it('keeps a valid stored choice and replaces a bad field with its default, alone', () => {
    expect(
      sanitizeSettings({ retrieval: { search: 'words', rerank: false, reranker: 'generator' } }).retrieval,
    ).toEqual({ search: 'words', rerank: false, reranker: 'generator' });
    expect(sanitizeSettings({ retrieval: { search: 'bm42', rerank: false, reranker: 'oracle' } }).retrieval).toEqual({
      search: 'both',
      rerank: false,
      reranker: 'cross-encoder',
    });
    expect(sanitizeSettings({ retrieval: 'words' }).retrieval).toEqual({
      search: 'both',
      rerank: true,
      reranker: 'cross-encoder',
    });
  });

  it('travels in a shared link (search, rerank), and a bad linked value keeps the reader’s own', () => {
    const s = defaultSettings();
    s.retrieval = { search: 'meaning', rerank: false, reranker: 'cross-encoder' };
    const link = writeUrlState('', 'What does ERR_QX_7731 mean?', s);
    expect(new URLSearchParams(link).get('search')).toBe('meaning');
    expect(readUrlState(link, defaultSettings()).settings.retrieval).toEqual({
      search: 'meaning',
      rerank: false,
      reranker: 'cross-encoder',
    });
    const mine = {
      ...defaultSettings(),
      retrieval: { search: 'words' as const, rerank: true, reranker: 'generator' as const },
    };
    expect(readUrlState('?search=everything&rerank=maybe', mine).settings.retrieval).toEqual({
      search: 'words',
      rerank: true,
      reranker: 'generator',
    });
  });

  it('carries who re-ranks in the same parameter: 0 none, 1 the cross-encoder, generator the loaded model', () => {
    const s = defaultSettings();
    s.retrieval = { search: 'both', rerank: true, reranker: 'generator' };
    const link = writeUrlState('', 'How do I pass an error up to the caller?', s);
    expect(new URLSearchParams(link).get('rerank')).toBe('generator');
    expect(readUrlState(link, defaultSettings()).settings.retrieval).toEqual(s.retrieval);
    // A link made before the choice existed (rerank=1) still means the cross-encoder, whatever the reader chose.
    const mine = { ...defaultSettings(), retrieval: s.retrieval };
    expect(readUrlState('?rerank=1', mine).settings.retrieval.reranker).toBe('cross-encoder');
    expect(readUrlState('?rerank=0', mine).settings.retrieval).toMatchObject({ rerank: false });
  });
});

describe('a changed retrieval setting', () => {
  it('is offered as needing a new answer', () => {
    const d = defaultSettings().decode;
    expect(decodeChanges({ ...d, search: 'both', rerank: true }, { ...d, search: 'words', rerank: true })).toEqual([
      'search',
    ]);
    expect(decodeChanges({ ...d, search: 'both', rerank: true }, { ...d, search: 'both', rerank: false })).toEqual([
      'rerank',
    ]);
    expect(
      decodeChanges(
        { ...d, search: 'both', rerank: true, reranker: 'cross-encoder' },
        { ...d, search: 'both', rerank: true, reranker: 'generator' },
      ),
    ).toEqual(['reranker']);
    // An answer kept from before the choice existed was re-ranked by the cross-encoder; with
    // re-ranking off, who would re-rank changes nothing.
    expect(
      decodeChanges(
        { ...d, search: 'both', rerank: true },
        { ...d, search: 'both', rerank: true, reranker: 'cross-encoder' },
      ),
    ).toEqual([]);
    expect(
      decodeChanges(
        { ...d, search: 'both', rerank: false, reranker: 'cross-encoder' },
        { ...d, search: 'both', rerank: false, reranker: 'generator' },
      ),
    ).toEqual([]);
  });
});

describe('embedder prefixes, read from the model choice', () => {
  it('e5 gets "query: " and "passage: "', () => {
    for (const id of ['intfloat/e5-small-v2', 'Xenova/multilingual-e5-small', 'intfloat/e5-base']) {
      expect(embedderPrefixes(id)).toEqual({ query: 'query: ', passage: 'passage: ' });
    }
  });

  it('bge v1.5 gets its query instruction (English or Chinese) and nothing on passages; bge-m3 and rerankers get none', () => {
    expect(embedderPrefixes('Xenova/bge-small-en-v1.5')).toEqual({ query: BGE_EN_QUERY, passage: '' });
    expect(embedderPrefixes('BAAI/bge-base-zh-v1.5')).toEqual({ query: BGE_ZH_QUERY, passage: '' });
    expect(embedderPrefixes('Xenova/bge-m3')).toEqual({ query: '', passage: '' });
    expect(embedderPrefixes('Xenova/bge-reranker-base')).toEqual({ query: '', passage: '' });
  });

  it('nomic-embed gets its task prefixes; MiniLM and names that merely contain "e5" get none', () => {
    expect(embedderPrefixes('nomic-ai/nomic-embed-text-v1.5')).toEqual({
      query: 'search_query: ',
      passage: 'search_document: ',
    });
    expect(embedderPrefixes('Xenova/all-MiniLM-L6-v2')).toEqual({ query: '', passage: '' });
    expect(embedderPrefixes('someone/code5-embedder')).toEqual({ query: '', passage: '' });
  });
});
