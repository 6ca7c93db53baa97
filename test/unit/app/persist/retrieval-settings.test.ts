import { describe, expect, it } from 'vitest';
import { decodeChanges, defaultSettings, sanitizeSettings } from '../../../../src/app/persist/settings';
import { readUrlState, writeUrlState } from '../../../../src/app/persist/url-state';
import { BGE_EN_QUERY, BGE_ZH_QUERY, embedderPrefixes } from '../../../../src/evaluator/config';

describe('the retrieval setting', () => {
  it('defaults to words and meaning together, re-ranked by the cross-encoder', () => {
    expect(defaultSettings().retrieval).toEqual({ search: 'both', rerank: true });
  });

  it('keeps a valid stored choice and replaces a bad field with its default, alone', () => {
    expect(sanitizeSettings({ retrieval: { search: 'words', rerank: false } }).retrieval).toEqual({
      search: 'words',
      rerank: false,
    });
    expect(sanitizeSettings({ retrieval: { search: 'bm42', rerank: false } }).retrieval).toEqual({
      search: 'both',
      rerank: false,
    });
    expect(sanitizeSettings({ retrieval: 'words' }).retrieval).toEqual({ search: 'both', rerank: true });
  });

  it('travels in a shared link (search, rerank), and a bad linked value keeps the reader’s own', () => {
    const s = defaultSettings();
    s.retrieval = { search: 'meaning', rerank: false };
    const link = writeUrlState('', 'What does ERR_QX_7731 mean?', s);
    expect(new URLSearchParams(link).get('search')).toBe('meaning');
    expect(readUrlState(link, defaultSettings()).settings.retrieval).toEqual({ search: 'meaning', rerank: false });
    const mine = { ...defaultSettings(), retrieval: { search: 'words' as const, rerank: true } };
    expect(readUrlState('?search=everything&rerank=maybe', mine).settings.retrieval).toEqual({
      search: 'words',
      rerank: true,
    });
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
