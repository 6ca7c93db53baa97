// How passages and sub-centroids are coded (format 6: RaBitQ, a factor each; 4–5: signs): the
// shape of one entry, which the list and centroid blocks' layouts follow.
import type { ShardedManifest } from './manifest';

/** Bits of a sign code (format 4–5), or of one RaBitQ bit plane: the dimension rounded up to 128, as the SIMD kernels want. */
export const codeBits = (dim: number) => Math.ceil(dim / 128) * 128;
export const codeBytes = (dim: number) => codeBits(dim) / 8;

/** How one kind of entry (a passage in a list, a sub-centroid in its block) is coded. */
export interface CodeShape {
  /** Bits a dimension: 1 for signs. */
  bits: number;
  /** Bytes of one code. */
  bytes: number;
  /** Whether a float32 factor follows the codes (RaBitQ); sign codes have none. */
  factors: boolean;
}

export const signShape = (dim: number): CodeShape => ({ bits: 1, bytes: codeBytes(dim), factors: false });
export const rabitqShape = (dim: number, bits: number): CodeShape => ({
  bits,
  bytes: bits * codeBytes(dim),
  factors: true,
});

/** The shapes of a corpus's list entries and sub-centroids, from its manifest. */
export function codeShapes(m: Pick<ShardedManifest, 'dim' | 'codes' | 'version'>): {
  list: CodeShape;
  sub: CodeShape;
} {
  if (m.version < 6 || !m.codes) return { list: signShape(m.dim), sub: signShape(m.dim) };
  return { list: rabitqShape(m.dim, m.codes.bits), sub: rabitqShape(m.dim, m.codes.subBits) };
}

/** Bytes of one entry: its code, then its factor where the shape has one. */
export const entryBytes = (shape: CodeShape) => shape.bytes + (shape.factors ? 4 : 0);
