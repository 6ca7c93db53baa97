// Question-like vectors for the writer to choose a corpus's reading depth on when the site gives
// no questions of its own (`--questions`). A passage taken as a question sits among its own
// document's passages, which the coarse lists keep together, so it promises far more than a
// one-sentence question gets (at 100k real passages: 0.961 promised, 0.731 met;
// docs/benchmarks-real.md). So the writer takes the first sentence of a sample of passages,
// embeds it as the page embeds questions, and counts as its true neighbours only passages of
// other documents, as if its document were not in the corpus (calibrate.ts leaves that
// document's passages out of the candidates too): what a visitor's question about something
// the corpus covers from another angle looks like.
import { mulberry32 } from '../../src/core/mulberry32';
import type { Placed } from './calibrate';

/** Pseudo-questions sampled, by default: recall varies a lot between questions, and these cost only their embedding. */
export const PSEUDO_QUESTIONS = 400;

/** A passage's first sentence of 30–300 characters, whitespace folded; null when it has none. */
export function firstSentence(text: string): string | null {
  return /^(.{30,300}?[.?!])(\s|$)/s.exec(text.replace(/\s+/g, ' ').trim())?.[1] ?? null;
}

/** A uniform sample of the stream's passages that have a first sentence: the sentence and where it came from. */
export class SentenceSample {
  readonly texts: string[] = [];
  readonly places: Placed[] = [];
  private seen = 0;
  private readonly rand = mulberry32(29);
  constructor(readonly capacity: number) {}
  add(text: string, place: Placed): void {
    if (this.capacity <= 0) return;
    const sentence = firstSentence(text);
    if (!sentence) return;
    const j = this.texts.length < this.capacity ? this.texts.length : Math.floor(this.rand() * (this.seen + 1));
    this.seen++;
    if (j >= this.capacity) return;
    this.texts[j] = sentence;
    this.places[j] = place;
  }
}

/** Embeds the sample's sentences into `dim`-long rows end to end (unit length, as questions are). */
export async function embedSample(
  sample: SentenceSample,
  dim: number,
  embed: (texts: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array> {
  const vs = await embed(sample.texts);
  if (vs.length !== sample.texts.length)
    throw new Error(`asked for ${sample.texts.length} embeddings, got ${vs.length}`);
  const out = new Float32Array(vs.length * dim);
  vs.forEach((v, i) => {
    if (v.length !== dim) throw new Error(`a pseudo-question's embedding is ${v.length}-d, the passages' ${dim}-d`);
    let n = 0;
    for (let j = 0; j < dim; j++) n += v[j]! * v[j]!;
    const inv = 1 / Math.sqrt(n || 1);
    for (let j = 0; j < dim; j++) out[i * dim + j] = v[j]! * inv;
  });
  return out;
}
