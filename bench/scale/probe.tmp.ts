import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { LexicalIndex } from '../../src/library/lexical/lexical-index';
import { passageTexts } from './text';
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const used = () => { gc(); gc(); const m = process.memoryUsage(); return m.heapUsed + m.external; };
const n = Number(process.argv[2] ?? 200000);
const passageId = (i: number) => `doc-${(Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0')}${(i >>> 5).toString(16).padStart(8, '0')}#${i & 31}`;
const before = used();
const ix = new LexicalIndex();
const next = passageTexts(n, n);
for (let i = 0; i < n; i += 10000) ix.add(Array.from({ length: Math.min(10000, n - i) }, (_, j) => ({ id: passageId(i + j), text: next() })));
const held = used() - before;
console.log('total', (held / 1e6).toFixed(1), 'typed', (ix.heldBytes() / 1e6).toFixed(1));
const anyIx = ix as unknown as { termCount: number; docCount: number; pool: { bytes(): number }; chainLen: Uint32Array; df: Uint32Array };
let chain = 0, postings = 0; for (let t = 0; t < anyIx.termCount; t++) { chain += anyIx.chainLen[t]!; postings += anyIx.df[t]!; }
console.log('terms', anyIx.termCount, 'postings', postings, 'chain bytes', chain, 'B/posting', (chain / postings).toFixed(2), 'pool', anyIx.pool.bytes());
// distribution for tf encodings
