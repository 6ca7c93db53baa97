// The evaluator the answer benches grade with: the real all-MiniLM-L6-v2's cosine through a
// logistic, standing in for the app's cross-encoder (relevance) and NLI model (support), which
// have no real weights in any registry these machines reach. Every figure that uses it says so.
import type { Critic, Passage, RelProbs, SupProbs } from '../../src/core/ports';

/** Logistic centre and scale of a question–passage cosine (measured by bench/isrel.bench.ts). */
export const REL_CENTRE = 0.45;
export const REL_SCALE = 0.06;
/** A statement against its passage sits higher than a question against it: centred on the support pairs' midpoint. */
export const SUP_CENTRE = 0.55;
export const SUP_SCALE = 0.06;

const logistic = (x: number, centre: number, scale: number): number => 1 / (1 + Math.exp(-(x - centre) / scale));

export interface Cosines {
  /** Cosine of `a` against each of `texts`, each embedded alone as the app embeds them. */
  (a: string, texts: string[]): Promise<number[]>;
}

export function minilmCritic(cosines: Cosines): Critic & { score(q: string, texts: string[]): Promise<number[]> } {
  const passageText = (p: Passage) => `${p.title}\n${p.text}`;
  return {
    async relevance(question: string, passages: Passage[]): Promise<RelProbs[]> {
      const c = await cosines(question, passages.map(passageText));
      return c.map((x) => {
        const r = logistic(x, REL_CENTRE, REL_SCALE);
        return { relevant: r, irrelevant: 1 - r };
      });
    },
    async support(pairs: { passage: Passage; text: string }[]): Promise<SupProbs[]> {
      const out: SupProbs[] = [];
      for (const { passage, text } of pairs) {
        const [c] = await cosines(text, [passage.text]);
        const p = logistic(c ?? 0, SUP_CENTRE, SUP_SCALE);
        out.push({ full: p, partial: 0, none: 1 - p });
      }
      return out;
    },
    /** CRAG's retrieval evaluator: the relevance probability of each text. */
    async score(question: string, texts: string[]): Promise<number[]> {
      return (await cosines(question, texts)).map((x) => logistic(x, REL_CENTRE, REL_SCALE));
    },
  };
}
