import { runBeam } from './beam';
import { CoreInputError } from './errors';
import { validateDecodeSettings, validateRankSettings } from './settings';
import type { AnswerTree, RankSettings, Ranking } from './types';

/**
 * The best answer in a finished tree under new weights or constraints, without calling any
 * model: the beam search is replayed over the stored candidates, and a node the original
 * decode never expanded counts as a complete answer. Pure and cheap enough for every slider
 * movement (a few microseconds for a 6-segment, 5-candidates-per-step tree).
 */
export function rerank(tree: AnswerTree, rank: RankSettings): Ranking {
  if (!tree || !Array.isArray(tree.candidates))
    throw new CoreInputError('rerank needs an answer tree with candidates.');
  validateDecodeSettings(tree.settings);
  validateRankSettings(rank);
  return runBeam(tree, rank).ranking;
}
