/**
 * Run as a child process by the auth-login benchmark (`node bench/support/bcrypt-rate.ts`): the raw
 * rate of bcrypt compares with the library and the settings the project host uses — `bcrypt`
 * `compare` (a libuv threadpool task, like the host's PasswordHasher), resolved from
 * apps/project-host, against a hash the host stored, in a fresh Node process whose environment is
 * the host's (so the same UV_THREADPOOL_SIZE). `BENCH_BCRYPT_INFLIGHT` compares are kept in flight
 * for `BENCH_BCRYPT_SECONDS`, after a one-second warm-up, counting the compares completed within
 * that window; prints one JSON line.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Verify = (password: string, hash: string) => Promise<boolean>;

const appRequire = createRequire(
  join(import.meta.dirname, '..', '..', 'apps', 'project-host', 'package.json'),
);
const { compare: verify } = appRequire('bcrypt') as { compare: Verify };

const hash = process.env.BENCH_BCRYPT_HASH ?? '';
const password = process.env.BENCH_BCRYPT_PASSWORD ?? '';
const seconds = Number(process.env.BENCH_BCRYPT_SECONDS ?? '10');
const inflight = Number(process.env.BENCH_BCRYPT_INFLIGHT ?? '16');

/** Compares completed within the window of `ms` (the ones still running at its end are not counted). */
async function run(ms: number): Promise<{ compares: number; elapsedMs: number }> {
  const started = performance.now();
  const until = started + ms;
  let compares = 0;
  const lane = async (): Promise<void> => {
    while (performance.now() < until) {
      if (!(await verify(password, hash))) throw new Error('the password does not match the stored hash');
      if (performance.now() <= until) compares++;
    }
  };
  await Promise.all(Array.from({ length: inflight }, lane));
  return { compares, elapsedMs: ms };
}

await run(1_000);
const { compares, elapsedMs } = await run(seconds * 1000);
process.stdout.write(
  `${JSON.stringify({
    comparesPerSecond: compares / (elapsedMs / 1000),
    compares,
    elapsedMs,
    inflight,
    threadpool: process.env.UV_THREADPOOL_SIZE ?? '4 (libuv default)',
    cost: Number(/^\$2[aby]?\$(\d+)\$/.exec(hash)?.[1] ?? 0),
  })}\n`,
);
