import type { ExternalSearch, Retriever, ScoredPassage, Writer } from '../../../../src/core/ports';

export function passage(id: string, text: string, score = 0.5): ScoredPassage {
  return { id, docId: id.split('#')[0] ?? id, title: id, text, index: 0, score };
}

/**
 * A retrieval evaluator whose behaviour is known exactly: each text scores the value of the
 * first marker word it contains (markers are words like HIGH, MID, LOW), else `fallback`.
 */
export function markerScorer(markers: Record<string, number>, fallback = 0) {
  const calls: { question: string; texts: string[] }[] = [];
  const score = async (question: string, texts: string[]) => {
    calls.push({ question, texts });
    return texts.map((t) => {
      for (const [word, value] of Object.entries(markers)) if (t.includes(word)) return value;
      return fallback;
    });
  };
  return { score, calls };
}

export function scriptedWriter(replies: string[]): Writer & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    async write(instruction) {
      prompts.push(instruction);
      const reply = replies[prompts.length - 1];
      if (reply === undefined) throw new Error(`scripted writer has no reply #${prompts.length}`);
      return reply;
    },
  };
}

export function tableRetriever(table: Record<string, ScoredPassage[]>): Retriever & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    async retrieve(query, k) {
      queries.push(query);
      return (table[query] ?? []).slice(0, k);
    },
  };
}

export function fakeExternal(results: ScoredPassage[] | Error): ExternalSearch & { queries: string[] } {
  const queries: string[] = [];
  return {
    name: 'Fakepedia',
    queries,
    async search(query, k) {
      queries.push(query);
      if (results instanceof Error) throw results;
      return results.slice(0, k);
    },
  };
}
