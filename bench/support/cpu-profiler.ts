/**
 * Preloaded into a jobs-api process (`node --import bench/support/cpu-profiler.ts`) by the submission
 * benchmark's profiling pass. The first SIGWINCH starts V8's sampling CPU profiler, the second stops
 * it and writes the profile to $BENCH_CPU_PROFILE. (`--cpu-prof` writes only on a clean exit, which a
 * Nest app ended by a signal never has; this way the profile also covers only the load, not the boot.
 * SIGWINCH because Nest's shutdown hooks take SIGUSR2, and SIGUSR1 opens Node's inspector.)
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const output = process.env.BENCH_CPU_PROFILE;

if (output) {
  const session = new Session();
  session.connect();
  let running = false;
  let busy: Promise<void> = Promise.resolve();
  const toggle = async (): Promise<void> => {
    if (!running) {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      running = true;
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    running = false;
    writeFileSync(`${output}.partial`, JSON.stringify(profile));
    renameSync(`${output}.partial`, output);
  };
  process.on('SIGWINCH', () => {
    busy = busy.then(toggle).catch((error: unknown) => {
      process.stderr.write(`cpu-profiler: ${String(error)}\n`);
    });
  });
}
