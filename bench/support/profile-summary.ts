import { readFileSync } from 'node:fs';

/** Where a jobs-api process spends its CPU time, from a V8 .cpuprofile. */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/**
 * First match wins. Tested against the path inside node_modules (`@prisma/client/runtime/…`: pnpm's
 * store directories name peer dependencies, so the full URL would mislead) or, for the workspace's own
 * code, the whole URL.
 */
const CATEGORIES: readonly [string, RegExp][] = [
  ['prisma (query compiler, client)', /^@prisma\/|^prisma\/|\/libs\/db\/dist\/|^wasm:/],
  [
    'pg driver',
    /^(pg|pg-protocol|pg-pool|pg-types|postgres-array|postgres-date|postgres-interval|pg-connection-string)\//,
  ],
  ['bullmq', /^bullmq\//],
  [
    'ioredis',
    /^(ioredis|@ioredis\/[^/]+|redis-parser|redis-errors|cluster-key-slot|denque|standard-as-callback)\//,
  ],
  [
    'validation (class-validator/transformer, contracts)',
    /^(class-validator|class-transformer|validator|libphonenumber-js)\/|\/libs\/contracts\/dist\//,
  ],
  [
    'logging (pino)',
    /^(pino|pino-http|nestjs-pino|sonic-boom|thread-stream|fast-redact|fast-safe-stringify|@pinojs\/[^/]+)\//,
  ],
  ['telemetry (opentelemetry)', /^@opentelemetry\/|\/libs\/telemetry\/dist\//],
  ['nest', /^@nestjs\//],
  [
    'fastify',
    /^(fastify|@fastify\/[^/]+|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|toad-cache)\//,
  ],
  ['app code (jobs-api, libs)', /\/(apps|libs)\/[^/]+\/dist\//],
  ['other packages', /./],
];

const PSEUDO: Record<string, string> = {
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8/native (program)',
  '(idle)': 'idle',
  '(root)': 'V8/native (program)',
};

const NODE_INTERNALS = 'node internals (http, net, streams, timers)';

function categoryOf(frame: ProfileNode['callFrame']): string | undefined {
  if (PSEUDO[frame.functionName] && !frame.url) return PSEUDO[frame.functionName];
  const url = frame.url;
  if (!url) return undefined;
  if (url.startsWith('node:')) return NODE_INTERNALS;
  const marker = 'node_modules/';
  const at = url.lastIndexOf(marker);
  const where = at === -1 ? url : url.slice(at + marker.length);
  if (at === -1 && !/\/(apps|libs)\/|^wasm:/.test(url)) return undefined;
  return CATEGORIES.find(([, pattern]) => pattern.test(where))?.[0];
}

export interface ProfileSummary {
  /** Milliseconds of samples. */
  sampledMs: number;
  /** Share of the sampled time the main thread was busy (not idle). */
  busyPercent: number;
  /**
   * Busy time by category, attributing each sample to the innermost frame that belongs to a library
   * (so Node's socket writes made by ioredis count as ioredis). Percent of busy time.
   */
  selfByCategory: { category: string; percent: number }[];
  /** Percent of busy samples with a frame of the category anywhere on the stack. */
  inclusive: { category: string; percent: number }[];
  /** The busiest functions by self time. */
  topFunctions: { fn: string; percent: number }[];
}

export function summarizeProfile(file: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000; // µs → ms
    total += dt;
    const leaf = byId.get(id);
    if (!leaf) return;
    if (leaf.callFrame.functionName === '(idle)') return;
    busy += dt;
    const stack: ProfileNode[] = [];
    for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parent.get(node.id) ?? -1))
      stack.push(node);
    // Innermost library frame; node internals only when nothing else is on the stack.
    let category: string | undefined;
    let internal: string | undefined;
    for (const node of stack) {
      const c = categoryOf(node.callFrame);
      if (!c) continue;
      if (c === NODE_INTERNALS) {
        internal ??= c;
        continue;
      }
      category = c;
      break;
    }
    const chosen = category ?? internal ?? categoryOf(leaf.callFrame) ?? 'V8/native (program)';
    self.set(chosen, (self.get(chosen) ?? 0) + dt);
    const onStack = new Set(
      stack.map((n) => categoryOf(n.callFrame)).filter((c): c is string => c !== undefined),
    );
    for (const c of onStack) inclusive.set(c, (inclusive.get(c) ?? 0) + dt);
    const f = leaf.callFrame;
    const where = f.url
      ? `${f.url.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')}:${f.lineNumber + 1}`
      : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + dt);
  });
  const pct = (ms: number): number => Math.round((ms / Math.max(busy, 1e-9)) * 1000) / 10;
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return {
    sampledMs: Math.round(total),
    busyPercent: Math.round((busy / Math.max(total, 1e-9)) * 1000) / 10,
    selfByCategory: sorted(self).map(([category, ms]) => ({ category, percent: pct(ms) })),
    inclusive: sorted(inclusive)
      .filter(
        ([c]) =>
          !['idle', 'V8/native (program)', 'garbage collection'].includes(c) &&
          !c.startsWith('node internals'),
      )
      .map(([category, ms]) => ({ category, percent: pct(ms) })),
    topFunctions: sorted(functions)
      .slice(0, 12)
      .map(([fn, ms]) => ({ fn, percent: pct(ms) })),
  };
}
