// `make test-faults`: the fault tests (test/faults/**/*.fault.ts). Each scenario starts its own
// Postgres and Redis on free ports and stops, restarts or kills them and the suite's built apps;
// none of it touches the machine's servers. The main jest.config.js never matches *.fault.ts.
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/test/faults/**/*.fault.ts'],
  // Every scenario boots databases, apps and often Chromium: one at a time keeps a 2-core machine
  // from turning timeouts into failures.
  maxWorkers: 1,
  testTimeout: 180_000,
};
