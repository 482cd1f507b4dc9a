// Longest suites first, by the committed test/suite-durations.json (seconds per suite, from a CI run).
// Jest orders by the durations of its own cache, which a clean clone does not have, and otherwise by
// file size: a short file that runs for minutes (the plain-English corpus) then starts wherever its
// size puts it, and when that is late, one worker runs it alone at the end. Regenerate the file
// after adding or speeding up a slow suite:
// `TEST_REPORT=/tmp/report.json make test`, then `node scripts/suite-durations.js /tmp/report.json`.
// A suite the file does not list (a new one) runs first, as Jest runs suites it has no time for.
// Jest's own cache still decides everything else (a suite that failed last time runs first).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import DefaultSequencer from '@jest/test-sequencer';

const durations = JSON.parse(
  readFileSync(join(import.meta.dirname, 'test', 'suite-durations.json'), 'utf8'),
).suites;

// A CommonJS module with __esModule: its class is the default export or that export's `default`.
const Sequencer = DefaultSequencer.default ?? DefaultSequencer;

export default class SlowestFirstSequencer extends Sequencer {
  time(test) {
    const seconds = durations[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
    return seconds === undefined ? super.time(test) : seconds * 1000;
  }
}
