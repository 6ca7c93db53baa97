// Library start-up at scale (issue 22): the compact index re-opened from its own saved files
// against the start-up it replaces (every stored float32 vector read and encoded again), and
// the exact flat index read the same way, at BENCH_STARTUP_SIZES passages × 384 (default 100k
// and 1M; 100 passages per document). Each start-up runs in its own process so its peak memory
// (VmHWM, minus an idle process's) is its own; ratios are against the floats → compact start-up
// in the same run. Disk: the floats as the library stores them, and the compact index's files.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactFileNames, compactPersistence } from '../src/library/compact-persistence';
import { nodeFolder } from './scale/node-file';
import { embeddingModel, embeddingVectors } from './scale/vectors';

const DIM = 384;
const PER_DOC = 100;
const BUILD_BATCH = 10_000;
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

interface Result {
  mode: string;
  ms: number;
  openMs?: number;
  stale?: number;
  size: number;
  top: string[];
  maxRss: number;
  addMs: number;
  addBytes: number;
}

function child(mode: string, dir: string, n: number): Result {
  const out = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'scale/startup-child.ts'),
      mode,
      dir,
      String(n),
      String(DIM),
      String(PER_DOC),
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=16384' },
    },
  );
  const line = out.stdout.trim().split('\n').pop() ?? '';
  if (out.status !== 0 || !line.startsWith('{'))
    throw new Error(`start-up '${mode}' failed: ${out.stderr.slice(-2000)}`);
  return JSON.parse(line) as Result;
}

async function prepare(n: number, dir: string): Promise<void> {
  const vs = embeddingVectors(embeddingModel(DIM, 1), n, DIM);
  writeFileSync(join(dir, 'floats.bin'), new Uint8Array(vs.data.buffer, vs.data.byteOffset, n * DIM * 4));
  const index = (await compactPersistence(nodeFolder(dir)).create('lib', 'bench', DIM))!;
  for (let i = 0; i < n; i += BUILD_BATCH) {
    const count = Math.min(BUILD_BATCH, n - i);
    index.add(
      Array.from({ length: count }, (_, j) => `d${Math.floor((i + j) / PER_DOC)}#${(i + j) % PER_DOC}`),
      Array.from({ length: count }, (_, j) => vs.row(i + j)),
    );
  }
}

export async function run(): Promise<void> {
  const sizes = (process.env.BENCH_STARTUP_SIZES ?? '100000,1000000')
    .split(',')
    .map(Number)
    .filter((x) => x > 0);
  const modes = (process.env.BENCH_STARTUP_MODES ?? 'floats-compact,floats-flat,rebuild,saved').split(',');
  const lines: string[] = [];
  const disk: string[] = [];
  const idle = child('idle', tmpdir(), 0).maxRss;
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'startup-bench-'));
    try {
      const t = performance.now();
      await prepare(n, dir);
      console.log(`(prepared ${n} in ${((performance.now() - t) / 1000).toFixed(0)} s)`);
      const results = modes.map((m) => child(m, dir, n));
      const base = results.find((r) => r.mode === 'floats-compact');
      for (const r of results) {
        const net = r.maxRss - idle;
        lines.push(
          `| ${n} | ${r.mode} | ${(r.ms / 1000).toFixed(2)} | ${base ? `${(r.ms / base.ms).toFixed(3)}×` : 'n/a'} | ${mb(net)} | ${base ? `${(net / (base.maxRss - idle)).toFixed(3)}×` : 'n/a'} | ${r.top.join(' ')} | ${r.mode === 'saved' ? `open ${r.openMs} ms, ${r.stale} stale; +20 passages ${r.addMs} ms, +${r.addBytes} B on disk` : ''} |`,
        );
        console.log(`(done ${n} ${r.mode})`);
      }
      const files = compactFileNames('lib').map((f) => [f.split('.').pop()!, statSync(join(dir, f)).size] as const);
      const floats = statSync(join(dir, 'floats.bin')).size;
      const compact = files.reduce((s, [, b]) => s + b, 0);
      disk.push(
        `| ${n} | ${mb(floats)} | ${files.map(([f, b]) => `${f} ${mb(b)}`).join(', ')} | ${mb(compact)} | ${(compact / floats).toFixed(3)} |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(
    `\n${DIM}-d embedding-like vectors, ${PER_DOC} passages per document; peak = the start-up process's peak resident memory (VmHWM) minus an idle one's (${mb(idle)}).\n`,
  );
  console.log(
    '| passages | start-up | time s | time / floats→compact | peak memory | peak / floats→compact | top 3 for one query | notes |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---|---|');
  for (const l of lines) console.log(l);
  console.log(
    "\nDisk: float32 vectors as stored (IndexedDB adds its own overhead) and the compact index's own files.\n",
  );
  console.log('| passages | float32 vectors | compact files | compact total | compact / floats |');
  console.log('|---:|---:|---|---:|---:|');
  for (const d of disk) console.log(d);
}
