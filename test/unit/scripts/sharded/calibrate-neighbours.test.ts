// The writer calibrates its reading depth on its own passages taken as questions. The chunks
// next to a passage in its document share its overlapping words and sit in its list; as "true
// neighbours" they are found at any depth, and the estimate came out 0.975 where new questions
// over real MiniLM vectors reached 0.885. So they are left out; the rest of its document is not.
import { describe, expect, it } from 'vitest';
import { NeighbourTracker } from '../../../../scripts/sharded/calibrate';
import { codeBytes, signShape } from '../../../../src/library/sharded/format/codes';
import { codeBasis } from '../../../../src/library/sharded/probe';

const DIM = 8;
const BASIS = codeBasis(
  DIM,
  { list: signShape(DIM), sub: signShape(DIM) },
  new Float32Array(DIM),
  new Float32Array(DIM).fill(1),
  null,
);
const unit = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / n);
};

describe('the calibration’s neighbours', () => {
  it('leave out the question’s own passage and the chunks either side of it, not the rest of its document', () => {
    const question = unit([1, 0.1, 0, 0, 0, 0, 0, 0]);
    const tracker = new NeighbourTracker(question, DIM, BASIS, [{ docId: 'guide', index: 5 }]);
    const code = new Uint8Array(codeBytes(DIM));
    tracker.add(question, 0, code, 0, { docId: 'guide', index: 5 }); // the question's own passage
    tracker.add(unit([1, 0.12, 0, 0, 0, 0, 0, 0]), 0, code, 0, { docId: 'guide', index: 4 }); // the chunk before
    tracker.add(unit([1, 0.11, 0, 0, 0, 0, 0, 0]), 0, code, 0, { docId: 'guide', index: 6 }); // the chunk after
    tracker.add(unit([1, 0.13, 0, 0, 0, 0, 0, 0]), 99, code, 0, { docId: 'guide', index: 9 }); // further on: a neighbour
    for (let i = 0; i < 12; i++)
      tracker.add(unit([1, 0.3 + i / 10, 0.2, 0, 0, 0, 0, 0]), 1 + i, code, 0, { docId: `other-${i}`, index: 5 });
    const near = tracker.neighbours(0);
    expect(near).toHaveLength(10);
    expect(near.map((n) => n.list).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 99]);
  });

  it('without documents (an older caller), only the question’s own passage is left out', () => {
    const question = unit([1, 0.1, 0, 0, 0, 0, 0, 0]);
    const tracker = new NeighbourTracker(question, DIM, BASIS);
    const code = new Uint8Array(codeBytes(DIM));
    tracker.add(question, 0, code, 0);
    tracker.add(unit([1, 0.12, 0, 0, 0, 0, 0, 0]), 7, code, 0);
    expect(tracker.neighbours(0).map((n) => n.list)).toEqual([7]);
  });
});
