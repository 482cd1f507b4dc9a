// One Jest run for every package: unit specs beside the code (*.spec.ts) and integration/e2e specs
// that talk to the real Postgres, Redis and Chromium prepared by tools/devstack/src/test.ts, which
// sets DATABASE_URL (a migrated test database), TEST_PG_ADMIN_URL, REDIS_URL and REDIS_PREFIX before
// it starts Jest. Workspace libraries resolve to their sources, so no build is needed.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^@suite/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/{apps,libs,tools}/*/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Only a hang should meet this: boots in hooks take minutes on a machine loaded 20-30 on 2 cores,
  // and the waits inside follow the app (test/support/app-process.ts waitForHttp), not a clock.
  testTimeout: 300_000,
  maxWorkers: 2,
  // Longest suites first by test/suite-durations.json, also on a clean clone (no Jest cache).
  testSequencer: '<rootDir>/jest.sequencer.js',
};
