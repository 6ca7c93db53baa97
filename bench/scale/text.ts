// Synthetic passages for the word-index bench: a 40,000-word vocabulary of made-up
// words drawn with Zipf's law (s = 1.07, as in English text), 60–120 words a passage.
import { mulberry32 } from '../../src/core/mulberry32';

const SYL = [
  'ka',
  'lo',
  'mi',
  're',
  'tu',
  'san',
  'vel',
  'dor',
  'pin',
  'qua',
  'zer',
  'no',
  'fi',
  'gar',
  'hel',
  'jo',
  'bra',
  'cle',
  'ost',
  'wyn',
];

export function vocabulary(size: number, seed: number): string[] {
  const r = mulberry32(seed);
  const seen = new Set<string>();
  while (seen.size < size) {
    const n = 2 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYL[Math.floor(r() * SYL.length)]!;
    seen.add(w);
  }
  return [...seen];
}

export function zipfSampler(n: number, s: number, r: () => number): () => number {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) cdf[i] = acc += 1 / (i + 1) ** s;
  for (let i = 0; i < n; i++) cdf[i]! /= acc;
  return () => {
    const u = r();
    let lo = 0,
      hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function passageTexts(count: number, seed: number, vocab = vocabulary(40000, 1)): () => string {
  const r = mulberry32(seed);
  const pick = zipfSampler(vocab.length, 1.07, r);
  let made = 0;
  return () => {
    if (made++ >= count) throw new Error('no more passages');
    const len = 60 + Math.floor(r() * 60);
    const words: string[] = [];
    for (let i = 0; i < len; i++) words.push(vocab[pick()]!);
    return words.join(' ');
  };
}
