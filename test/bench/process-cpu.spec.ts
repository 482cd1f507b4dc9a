import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clockTicksPerSecond,
  cpuBetween,
  descendants,
  cpuSnapshot,
  parseStat,
  readProcesses,
  treeTicks,
} from '../../bench/support/process-cpu.js';

/** A /proc/<pid>/stat line: utime, stime, cutime and cstime as given, the other fields zero. */
const statLine = (pid: number, comm: string, ppid: number, cpu: [number, number, number, number]) =>
  `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 0 0 0 0 ${cpu.join(' ')} 20 0 1 0 1234 0 0\n`;

describe('bench/support/process-cpu (the /proc reader of the interpreter benchmark)', () => {
  it('parses utime + stime and cutime + cstime, with spaces and parentheses in the command name', () => {
    expect(parseStat(statLine(42, 'Chrome_Child (x) y', 7, [150, 25, 30, 4]))).toEqual({
      pid: 42,
      ppid: 7,
      comm: 'Chrome_Child (x) y',
      ticks: 175,
      reapedTicks: 34,
    });
  });

  it('sums a process tree, its reaped children included, and leaves other trees out', () => {
    const proc = mkdtempSync(join(tmpdir(), 'fake-proc-'));
    try {
      const write = (pid: number, comm: string, ppid: number, cpu: [number, number, number, number]) => {
        mkdirSync(join(proc, String(pid)));
        writeFileSync(join(proc, String(pid), 'stat'), statLine(pid, comm, ppid, cpu));
      };
      write(100, 'node', 1, [500, 50, 0, 0]);
      write(200, 'chrome', 100, [300, 100, 0, 0]);
      write(201, 'chrome', 200, [10, 5, 40, 2]); // a zygote that reaped closed renderers
      write(202, 'chrome', 201, [70, 3, 0, 0]); // a renderer
      write(300, 'other', 1, [999, 999, 999, 999]);
      mkdirSync(join(proc, 'self'));
      const processes = readProcesses(proc);
      expect(processes.map((p) => p.pid).sort()).toEqual([100, 200, 201, 202, 300]);
      const tree = descendants(200, processes);
      expect(tree.map((p) => p.pid)).toEqual([200, 201, 202]);
      expect(treeTicks(tree)).toBe(400 + 15 + 42 + 73);
      expect(descendants(999, processes)).toEqual([]);
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });

  it('counts an ffmpeg child of this process once it has exited and been reaped', () => {
    expect(clockTicksPerSecond()).toBeGreaterThan(0);
    // What a reaped child used moves to this process's cutime + cstime, which the ffmpeg group
    // counts (a stand-in need not be named ffmpeg). The child burns 300 ms of CPU, not of wall time.
    const before = cpuSnapshot([]);
    const child = spawnSync(process.execPath, [
      '-e',
      'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 300_000);',
    ]);
    expect(child.status).toBe(0);
    const used = cpuBetween(before, cpuSnapshot([]));
    expect(used.ffmpeg).toBeGreaterThanOrEqual(0.25);
    expect(used.browser).toBe(0);
    expect(used.total).toBeCloseTo(used.browser + used.node + used.ffmpeg);
  });
});
