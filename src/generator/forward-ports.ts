// The part of a generator handle (either engine) that only forwards to the loaded generator,
// and the cost it keeps across unloads so the page's call count survives a model switch.
import type { GeneratedSegment, GeneratorCost, RetrievalDecisionRequest, RetrieveProbs, SegmentRequest } from '../core/ports';

interface Loaded {
  decideRetrieval(req: RetrievalDecisionRequest): Promise<RetrieveProbs>;
  generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]>;
  write(instruction: string, opts?: { maxTokens?: number; signal?: AbortSignal }): Promise<string>;
  cost(): GeneratorCost;
  resetCost(): void;
}

export function addCost(into: GeneratorCost, c: GeneratorCost): void {
  into.promptTokens += c.promptTokens;
  into.decodedTokens += c.decodedTokens;
  into.calls += c.calls;
}

/** `use` waits for (or starts) the load; `loaded` is the generator now loaded, if any. */
export function forwardPorts<G extends Loaded>(
  use: <T>(run: (g: G) => Promise<T>) => Promise<T>,
  loaded: () => G | undefined,
  spentBefore: GeneratorCost,
): Loaded {
  return {
    decideRetrieval: (req) => use((g) => g.decideRetrieval(req)),
    generateSegments: (reqs) => use((g) => g.generateSegments(reqs)),
    write: (instruction, opts) => use((g) => g.write(instruction, opts)),
    cost() {
      const total = { ...spentBefore };
      const g = loaded();
      if (g) addCost(total, g.cost());
      return total;
    },
    resetCost() {
      Object.assign(spentBefore, { promptTokens: 0, decodedTokens: 0, calls: 0 });
      loaded()?.resetCost();
    },
  };
}
