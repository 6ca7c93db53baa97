// The writer's last stage before the manifest: the probe depth, measured on the written blocks by
// replaying the reader's own routing and ranking (calibrate.ts) for the held-out questions.
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { centroidBlockBytes } from '../../src/library/sharded/format/centroids';
import { listBlockBytes } from '../../src/library/sharded/format/lists';
import { LISTS_FILE } from '../../src/library/sharded/format/manifest';
import { calibrate, TARGET_RECALL, type CalibrationResult, type NeighbourTracker } from './calibrate';
import { subCodes } from './centroids';
import type { ListLayout } from './lists';
import { shapeOf, type WriteShardedOptions } from './options';
import type { Survey } from './survey';
import type { Trained } from './train';

/** The probe depth, measured on the written blocks by the reader's own routing and ranking. */
export function calibrateDepth(
  opts: WriteShardedOptions,
  out: string,
  s: Survey,
  t: Trained,
  counts: Uint32Array,
  l: ListLayout,
  topCentroids: Uint8Array,
  tracker: NeighbourTracker,
  log: (line: string) => void,
): CalibrationResult {
  const { dim, coder } = s;
  const { cb, fb, rb } = shapeOf(dim, coder.shapes.list);
  const fd = openSync(join(out, LISTS_FILE), 'r');
  let calibration: CalibrationResult;
  try {
    calibration = calibrate(
      tracker,
      {
        dim,
        topCentroids,
        subs: t.subs,
        subCodes: (top) => subCodes(t, top, s),
        listCodes: (c) => {
          const entries = Buffer.allocUnsafe(counts[c]! * (cb + fb));
          readSync(fd, entries, 0, entries.length, l.listOffset[c]! + 4);
          const codes = entries.subarray(0, counts[c]! * cb);
          if (!fb) return { codes, factors: null };
          const f = entries.subarray(counts[c]! * cb);
          const factors = new Float32Array(counts[c]!);
          for (let i = 0; i < factors.length; i++) factors[i] = f.readFloatLE(i * 4);
          return { codes, factors };
        },
        listCount: (c) => counts[c]!,
        blockBytes: (top) => centroidBlockBytes(t.subs[top]!, coder.shapes.sub),
        listBytes: (c) => listBlockBytes(counts[c]!, coder.shapes.list),
        rowBytes: rb,
      },
      opts.targetRecall ?? TARGET_RECALL,
    );
  } finally {
    closeSync(fd);
  }
  const { ntop, nprobe, rescore, recall, lower, target, vectorBytes } = calibration;
  const Q = s.questions.length / dim;
  log(
    `probe depth: ${ntop} tops × ${nprobe} lists, rescoring ${rescore}: recall@10 ${recall} (95 % lower bound ${lower}) on ${Q} ${{ questions: 'questions given', 'pseudo-questions': 'pseudo-questions (first sentences of its passages, their documents left out)', passages: 'of its own passages' }[s.questionKind]} (target ${target}${lower < target ? ', not reached by any depth tried' : ''}), ~${Math.round(vectorBytes / 1024)} kB of vectors a question`,
  );
  return calibration;
}
