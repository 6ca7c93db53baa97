// How deep a question reads a sharded corpus: the manifest's `probe`, measured by the writer on
// the corpus's own passages. A field of the format, so it lives here; ../probe.ts searches with it.

/**
 * How deep a question reads: tops whose sub-centroid blocks it fetches, lists it probes, and
 * candidates whose int8 rows it fetches and scores exactly. A corpus's writer measures these on
 * its own passages and writes them in the manifest (`probe`); the reader uses them unless a
 * question says otherwise.
 */
export interface ProbeDepth {
  ntop: number;
  nprobe: number;
  rescore: number;
}

/** What the writer measured for the depth it chose (manifest `probe`). */
export interface ProbeCalibration extends ProbeDepth {
  /** Recall@10 the depth reached, against exact search, for `queries` questions (`on` says which kind). */
  recall: number;
  /** Its one-sided 95 % lower confidence bound over those questions: what reached `target`. */
  lower: number;
  /** The recall it aimed for. */
  target: number;
  queries: number;
  /** What they were (written since format 6): questions the site gave, pseudo-questions, or held-out passages. */
  on?: 'questions' | 'pseudo-questions' | 'passages';
}
