// Random answer trees for the conformance tests: one description that both the reference
// restatement (reference.ts) and the core (through a scripted generator, or as a stored tree)
// read, so any disagreement is a disagreement of the algorithms.
import type { Candidate, AnswerTree, DecodeSettings } from '../../../src/core/types';
import type { ScoredPassage } from '../../../src/core/ports';
import type { RefNode, RefSegment, TokenProb } from './reference';
import { mulberry32 } from '../../../src/core/mulberry32';

/** A small, seedable PRNG, so fast-check's seed fixes the whole tree. */
export const prng = mulberry32;

export interface SpecNode {
  id: string;
  depth: number;
  parent: SpecNode | null;
  passageId: string | null;
  /** As the reference reads the tokens (undefined = missing from the top log-probs). */
  ref: RefSegment;
  done: boolean;
  /** Whether the model asked for retrieval before this node's continuations. */
  retrieveNext: boolean;
  children: SpecNode[];
}

export interface TreeShape {
  passages: number;
  maxDepth: number;
  pDone: number;
  pRetrieve: number;
  pMissingToken: number;
  pMissingGroup: number;
}

export const PASSAGES = ['p0', 'p1', 'p2', 'p3'];

export function passageOf(id: string, rank: number): ScoredPassage {
  return { id, docId: id, title: `Doc ${id}`, text: `Passage ${id}.`, index: 0, score: 1 - rank / 10 };
}

/** A probability group in which at least one token is present, some maybe missing. */
function group(rng: () => number, size: number, pMissing: number): TokenProb[] {
  const g: TokenProb[] = Array.from({ length: size }, () => (rng() < pMissing ? undefined : rng()));
  if (!g.some((x) => x !== undefined && x > 0)) g[Math.floor(rng() * size)] = 0.05 + rng();
  return g;
}

export function randomTree(
  rng: () => number,
  shape: TreeShape,
): { roots: SpecNode[]; rootRetrieves: boolean; all: SpecNode[] } {
  let next = 0;
  const all: SpecNode[] = [];
  const level = (parent: SpecNode | null, depth: number, retrieve: boolean): SpecNode[] => {
    const ids = retrieve ? PASSAGES.slice(0, shape.passages) : [null];
    const nodes = ids.map((passageId): SpecNode => {
      const tokens = Math.floor(rng() * 6);
      const n: SpecNode = {
        id: `n${next++}`,
        depth,
        parent,
        passageId,
        ref: {
          rel: passageId ? (group(rng, 2, shape.pMissingToken) as [TokenProb, TokenProb]) : null,
          sup:
            passageId && rng() >= shape.pMissingGroup
              ? (group(rng, 3, shape.pMissingToken) as [TokenProb, TokenProb, TokenProb])
              : null,
          use: rng() >= shape.pMissingGroup ? group(rng, 5, shape.pMissingToken) : null,
          // An empty segment has a cumulative log-prob of 0; otherwise some negative number.
          logprob: tokens === 0 ? 0 : -rng() * 3 * tokens,
          tokens,
        },
        done: rng() < shape.pDone,
        retrieveNext: rng() < shape.pRetrieve,
        children: [],
      };
      all.push(n);
      return n;
    });
    for (const n of nodes) {
      if (!n.done && depth < shape.maxDepth - 1) n.children = level(n, depth + 1, n.retrieveNext);
    }
    return nodes;
  };
  const rootRetrieves = rng() < shape.pRetrieve;
  return { roots: level(null, 0, rootRetrieves), rootRetrieves, all };
}

/**
 * Top-k log-probs in the wild: each reflection group of every node (ISREL, ISSUP, ISUSE), with
 * probability `p`, loses one of its present alternatives, chosen uniformly, as when a token
 * falls outside the k log-probs an engine returns. Draws from its own `rng`, so the tree's shape
 * and probabilities are those of the same seed without drops. Returns how many groups lost one.
 */
export function dropOneAlternative(all: SpecNode[], rng: () => number, p: number): number {
  let dropped = 0;
  const drop = (g: TokenProb[] | null): void => {
    if (!g || !(rng() < p)) return;
    const present = g.flatMap((x, i) => (x !== undefined ? [i] : []));
    if (present.length < 2) return;
    g[present[Math.floor(rng() * present.length)]!] = undefined;
    // A group must keep one positive probability (the core refuses an all-zero group by name).
    if (!g.some((x) => x !== undefined && x > 0)) g[present.find((i) => g[i] !== undefined)!] = 0.05 + rng();
    dropped++;
  };
  for (const n of all) {
    drop(n.ref.rel);
    drop(n.ref.sup);
    drop(n.ref.use);
  }
  return dropped;
}

/** The core reads a missing token as probability 0. */
const core = (x: TokenProb): number => x ?? 0;

export function segmentOf(n: SpecNode) {
  const { rel, sup, use, logprob, tokens } = n.ref;
  return {
    text: n.id,
    ...(rel ? { rel: { relevant: core(rel[0]), irrelevant: core(rel[1]) } } : {}),
    ...(sup ? { sup: { full: core(sup[0]), partial: core(sup[1]), none: core(sup[2]) } } : {}),
    ...(use ? { use: use.map(core) as [number, number, number, number, number] } : {}),
    ...(logprob !== undefined ? { logprob } : {}),
    tokenCount: tokens,
    done: n.done,
  };
}

/** The whole tree as the core stores it (every continuation decoded), in breadth-first order. */
export function storedTree(roots: SpecNode[], settings: DecodeSettings): AnswerTree {
  const candidates: Candidate[] = [];
  let queue = roots;
  while (queue.length) {
    const next: SpecNode[] = [];
    for (const n of queue) {
      const seg = segmentOf(n);
      const c: Candidate = {
        id: n.id,
        parentId: n.parent?.id ?? null,
        depth: n.depth,
        text: seg.text,
        passage: n.passageId ? passageOf(n.passageId, PASSAGES.indexOf(n.passageId)) : null,
        retrieve: { probs: null, retrieved: n.passageId !== null, reason: 'always' },
        fromGenerator: {},
        tokenCount: seg.tokenCount,
        done: seg.done,
      };
      if (seg.rel) c.rel = seg.rel;
      if (seg.sup) c.sup = seg.sup;
      if (seg.use) c.use = seg.use;
      if (seg.logprob !== undefined) c.logprob = seg.logprob;
      candidates.push(c);
      next.push(...n.children);
    }
    queue = next;
  }
  return { question: 'q', settings, candidates };
}

/** The tree as the reference search sees it, with each node's own reference segment score. */
export function refTree(roots: SpecNode[], score: (n: SpecNode) => number): RefNode[] {
  const conv = (n: SpecNode): RefNode => ({
    id: n.id,
    depth: n.depth,
    score: score(n),
    done: n.done,
    children: n.children.map(conv),
  });
  return roots.map(conv);
}
