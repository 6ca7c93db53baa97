// CPU seconds spent by this process and every process it started (the headless Chromium,
// its renderer and llama.cpp's worker threads), read from /proc. On a machine shared with
// other work, wall time measures the queue as much as the work; the CPU seconds an answer
// consumes are what it would take on one core of its own (single-threaded llama.cpp).
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = 100; // USER_HZ on Linux

function stat(pid: number): { ppid: number; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // Fields after the command: state(0) ppid(1) … utime(11) stime(12)
    return { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) };
  } catch {
    return null;
  }
}

/** CPU seconds of this process and its descendants, alive now (a process that exited is not counted). */
export function cpuSeconds(root = process.pid): number {
  const all = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s) all.set(pid, s);
  }
  const children = new Map<number, number[]>();
  for (const [pid, s] of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  let ticks = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    ticks += all.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks / TICKS;
}
