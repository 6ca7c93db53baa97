// The candidate budget (settings.maxCandidates): what is left of it goes to the most relevant
// passages first, and a step always writes at least one candidate.
import type { RelProbs } from '../ports';
import { normaliseRel } from '../scores';
import type { Gated } from './gate';

export function withinBudget(gated: Gated, maxCandidates: number, written: number): Gated {
  const { planned, rels } = gated;
  if (!maxCandidates) return gated;
  const room = Math.max(0, maxCandidates - written);
  if (planned.length <= room) return gated;
  const order = planned.map((_, i) => i);
  if (rels) order.sort((a, b) => relevance(rels[b]) - relevance(rels[a]));
  const keep = order.slice(0, Math.max(1, room)).sort((a, b) => a - b);
  return { planned: keep.map((i) => planned[i]!), ...(rels ? { rels: keep.map((i) => rels[i]) } : {}) };
}

const relevance = (r: RelProbs | undefined): number => (r ? normaliseRel(r).relevant : -1);
