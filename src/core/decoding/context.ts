// What one decode carries from step to step (Algorithm 1's state): the question, the ports, the
// settings, the tree being built and the candidate budget spent. The steps beside this file each
// take the context and do one thing; src/core/decode.ts runs them in the paper's order.
import type { Corrector, Critic, Generator, ResolvedCritiqueSource, Retriever, ScoredPassage } from '../ports';
import type { AnswerTree, Candidate, DecodeEvent, DecodeSettings } from '../types';

export interface DecodePorts {
  generator: Generator;
  retriever: Retriever;
  /** Required when `critiqueSource` is 'evaluator' or 'blend'. */
  critic?: Critic;
  /** Self-CRAG: sits between retrieval and generation. */
  corrector?: Corrector;
}

/** Thrown inside a step when the signal is seen aborted; decode turns it into `aborted: true`. */
export class Stop extends Error {}

/** A segment to write: its passage (or none) and the decision that led to it. */
export interface Plan {
  passage: ScoredPassage | null;
  retrieve: Candidate['retrieve'];
  correction?: Candidate['correction'];
}

export class DecodeContext {
  readonly tree: AnswerTree;
  private readonly byId = new Map<string, Candidate>();
  private nextId = 0;
  /** Candidates written so far, against settings.maxCandidates. */
  written = 0;

  constructor(
    readonly question: string,
    readonly ports: DecodePorts,
    readonly settings: DecodeSettings,
    /** Where relevance and support come from, decided once per answer ('auto' resolved). */
    readonly source: ResolvedCritiqueSource,
    readonly signal: AbortSignal | undefined,
    private readonly onEvent: ((e: DecodeEvent) => void) | undefined,
  ) {
    this.tree = { question, settings: { ...settings }, candidates: [] };
    if (settings.critiqueSource === 'auto') this.tree.critiquesFrom = source;
  }

  emit(e: DecodeEvent): void {
    this.onEvent?.(e);
  }

  /** Stops the decode before its next port call once the signal is aborted. */
  checkpoint(): void {
    if (this.signal?.aborted) throw new Stop();
  }

  budgetSpent(): boolean {
    return !!this.settings.maxCandidates && this.written >= this.settings.maxCandidates;
  }

  /** A new candidate's id and place in the tree, with nothing written yet. */
  blank(parentId: string | null, depth: number): Candidate {
    return {
      id: `c${this.nextId++}`,
      parentId,
      depth,
      text: '',
      passage: null,
      retrieve: { probs: null, retrieved: false, reason: this.settings.mode },
      fromGenerator: {},
      tokenCount: 0,
      done: false,
    };
  }

  add(c: Candidate): void {
    this.tree.candidates.push(c);
    this.byId.set(c.id, c);
    this.emit({ type: 'candidate', candidate: c });
  }

  get(id: string): Candidate | undefined {
    return this.byId.get(id);
  }

  /** The segments on the path from the root to `node`, root first (Algorithm 1's y_{<t}). */
  pathTexts(node: Candidate | null): string[] {
    const texts: string[] = [];
    for (let n = node; n; n = n.parentId === null ? null : (this.byId.get(n.parentId) ?? null)) texts.unshift(n.text);
    return texts;
  }
}
