import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU-seconds where a job pays them (issue 37): the browser's processes, the bench's own Node
 * process and its ffmpeg encoders, read before and after a job. Only node: imports, so the specs
 * under test/ can load it.
 *
 * A process's CPU is utime + stime of /proc/<pid>/stat (fields 14 and 15, clock ticks). A process
 * that exits takes its time along, unless its parent reaps it: then it moves to the parent's
 * cutime + cstime (fields 16 and 17). A tree's CPU is therefore the sum of both over its live
 * processes: a renderer that closes with its browser context, or an ffmpeg that finished its file,
 * still counts once it has been reaped (and while it is a zombie, by its own fields).
 */

/** Clock ticks per second (USER_HZ) of /proc's CPU fields, from `getconf CLK_TCK`; 100 if that fails. */
export function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

export interface ProcCpu {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime, clock ticks. */
  ticks: number;
  /** cutime + cstime: the CPU of the children it reaped (and of theirs), clock ticks. */
  reapedTicks: number;
}

/** Parses the text of /proc/<pid>/stat. comm may hold spaces and parentheses: it ends at the last ")". */
export function parseStat(text: string): ProcCpu {
  const close = text.lastIndexOf(')');
  // After the comm: field 3 (state) is fields[0], so field n is fields[n - 3].
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/)
    .map(Number);
  const field = (n: number): number => fields[n - 3] ?? 0;
  return {
    pid: Number(text.slice(0, text.indexOf(' '))),
    ppid: field(4),
    comm: text.slice(text.indexOf('(') + 1, close),
    ticks: field(14) + field(15),
    reapedTicks: field(16) + field(17),
  };
}

/** Every process of `procDir` (default /proc) now; ones that vanish while it reads are left out. */
export function readProcesses(procDir = '/proc'): ProcCpu[] {
  const out: ProcCpu[] = [];
  for (const name of readdirSync(procDir)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.push(parseStat(readFileSync(`${procDir}/${name}/stat`, 'utf8')));
    } catch {
      // Exited between the listing and the read.
    }
  }
  return out;
}

/** `root` and every live process below it, found by ppid. Empty when `root` is gone. */
export function descendants(root: number, processes: readonly ProcCpu[]): ProcCpu[] {
  const self = processes.find((p) => p.pid === root);
  if (!self) return [];
  const tree = [self];
  for (let i = 0; i < tree.length; i++) tree.push(...processes.filter((p) => p.ppid === tree[i]!.pid));
  return tree;
}

/** Clock ticks of a tree: every live process's own CPU and what it reaped. */
export function treeTicks(tree: readonly ProcCpu[]): number {
  return tree.reduce((sum, p) => sum + p.ticks + p.reapedTicks, 0);
}

/** CPU-seconds used so far, by group (monotonic; subtract two snapshots for a job's share). */
export interface CpuSnapshot {
  /** Chromium: the browser process, its zygotes, renderers, GPU and utility processes. */
  browser: number;
  /** The bench's Node process itself, every thread (process.cpuUsage()). */
  node: number;
  /** The ffmpeg processes the bench's Node started: live ones, and those it reaped (its cutime + cstime). */
  ffmpeg: number;
  /** The virtual displays (Xvfb) a headful browser draws on: the `x11grab` capture's X servers. */
  display: number;
}

let ticksPerSecond: number | undefined;

/**
 * CPU-seconds used so far by the browsers whose main processes are `browserPids` (puppeteer's
 * `browser.process().pid`), by this Node process and by its ffmpeg children. What this process
 * reaped counts as ffmpeg: in the interpreter benchmark its only short-lived children are its
 * encoders (a browser and the busy neighbour are reaped only after the measurements).
 */
export function cpuSnapshot(
  browserPids: readonly number[],
  displayPids: readonly number[] = [],
): CpuSnapshot {
  // Before /proc is read: getconf is a child this process reaps, too.
  ticksPerSecond ??= clockTicksPerSecond();
  const processes = readProcesses();
  const self = processes.find((p) => p.pid === process.pid);
  const browsers = browserPids.flatMap((pid) => descendants(pid, processes));
  const encoders = processes
    .filter((p) => p.ppid === process.pid && p.comm === 'ffmpeg')
    .flatMap((p) => descendants(p.pid, processes));
  const displays = displayPids.flatMap((pid) => descendants(pid, processes));
  const usage = process.cpuUsage();
  return {
    browser: treeTicks(browsers) / ticksPerSecond,
    display: treeTicks(displays) / ticksPerSecond,
    node: (usage.user + usage.system) / 1e6,
    ffmpeg: (treeTicks(encoders) + (self?.reapedTicks ?? 0)) / ticksPerSecond,
  };
}

/** CPU-seconds between two snapshots, by group and in total. */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot & { total: number } {
  const browser = after.browser - before.browser;
  const node = after.node - before.node;
  const ffmpeg = after.ffmpeg - before.ffmpeg;
  const display = after.display - before.display;
  return { browser, node, ffmpeg, display, total: browser + node + ffmpeg + display };
}
