import type { Critic, Embedder, Passage, SupProbs, Writer } from '../../../../src/core/ports';

export function ctx(id: string, text: string): Passage {
  return { id, docId: id, title: id, text, index: 0 };
}

/** Answers each prompt by the first rule whose key the prompt contains. */
export function ruleWriter(rules: [string, string][]): Writer & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    async write(instruction) {
      prompts.push(instruction);
      const hit = rules.find(([key]) => instruction.includes(key));
      if (!hit) throw new Error(`no scripted reply for prompt: ${instruction.slice(0, 80)}`);
      return hit[1];
    },
  };
}

/** Known vectors per text; embeddings are not normalised here, so cosine must normalise. */
export function tableEmbedder(table: Record<string, number[]>): Embedder {
  return {
    async embed(texts) {
      return texts.map((t) => {
        const v = table[t];
        if (!v) throw new Error(`no vector for "${t}"`);
        return Float32Array.from(v);
      });
    },
  };
}

/** NLI double: a statement is entailed by a passage whose text contains it (case-insensitive), else neutral. */
export function containsCritic(): Critic & { pairs: number } {
  const c = {
    pairs: 0,
    async relevance() {
      return [];
    },
    async support(pairs: { passage: Passage; text: string }[]): Promise<SupProbs[]> {
      c.pairs += pairs.length;
      return pairs.map(({ passage, text }) =>
        passage.text.toLowerCase().includes(text.replace(/\.$/, '').toLowerCase())
          ? { full: 0.8, partial: 0.15, none: 0.05 }
          : { full: 0.1, partial: 0.7, none: 0.2 },
      );
    },
  };
  return c;
}
