// How the writer codes passages (list entries) and sub-centroids, as the reader scores them
// (src/library/sharded/probe.ts): RaBitQ (format 6: the residual from the corpus's centre,
// rotated, B bits a dimension and a factor each; src/vector/rabitq.ts), or signs against the
// centre (format 5, the benches' baseline).
import { type CodeShape, rabitqShape, signShape } from '../../src/library/sharded/format/codes';
import { type CodeBasis, codeBasis } from '../../src/library/sharded/probe';
import { encodeCode, ROTATION_SEED } from '../../src/vector/rabitq';
import { encodeSignBits } from '../../src/vector/sign-codes';
import type { CodeChoice } from './options';

/**
 * Codes a new corpus gets unless told otherwise: passages in 2 bits a dimension and sub-centroids
 * in 4. See DEFAULT_CODES_WHY in docs/sharded-format.md (recall against bytes a question, per code,
 * on real all-MiniLM-L6-v2 vectors).
 */
export const DEFAULT_CODES: CodeChoice = { kind: 'rabitq', bits: 2, subBits: 4 };

export interface Coder {
  choice: CodeChoice;
  shapes: { list: CodeShape; sub: CodeShape };
  /** The rotation's seed (RaBitQ), null for signs. */
  seed: number | null;
  basis: CodeBasis;
  /** Codes unit vector `v` into `out` at `at` in `shape`; returns its factor (0 for signs). */
  encode(v: Float32Array, shape: CodeShape, out: Uint8Array, at: number): number;
}

export function coderFor(
  choice: CodeChoice,
  dim: number,
  centre: Float32Array,
  spread: Float32Array,
  seed = ROTATION_SEED,
): Coder {
  if (choice.kind === 'sign') {
    const shapes = { list: signShape(dim), sub: signShape(dim) };
    const words = signShape(dim).bytes / 4;
    const scratch = new Uint32Array(words);
    return {
      choice,
      shapes,
      seed: null,
      basis: codeBasis(dim, shapes, centre, spread, null),
      encode(v, _shape, out, at) {
        encodeSignBits(v, centre, dim, scratch, 0, words);
        out.set(new Uint8Array(scratch.buffer), at);
        return 0;
      },
    };
  }
  for (const b of [choice.bits, choice.subBits])
    if (!Number.isInteger(b) || b < 1 || b > 8) throw new Error(`code bits must be whole numbers 1 to 8, got ${b}`);
  const shapes = { list: rabitqShape(dim, choice.bits), sub: rabitqShape(dim, choice.subBits) };
  const basis = codeBasis(dim, shapes, centre, null, seed);
  const scratch = new Float64Array(dim);
  return {
    choice,
    shapes,
    seed,
    basis,
    encode: (v, shape, out, at) => encodeCode(basis.space!, v, shape.bits, out, at, scratch).factor,
  };
}
