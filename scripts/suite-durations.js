// Updates test/suite-durations.json (read by jest.sequencer.js) from a Jest JSON report:
//   TEST_REPORT=/tmp/report.json make test   (or pnpm test -- <paths>)
//   node scripts/suite-durations.js /tmp/report.json
// Suites in the report get its time (end - start, seconds); the others keep theirs; suites whose
// file is gone are dropped. Times from a whole CI run on the busy machine are the ones that matter.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const file = join(root, 'test', 'suite-durations.json');
const reportPath = process.argv[2];
if (!reportPath) {
  console.error('usage: node scripts/suite-durations.js <jest report.json>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const current = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).suites : {};
const suites = { ...current };
for (const result of report.testResults) {
  // A report from another clone of the repository (CI's) names its files under that clone.
  let path = relative(root, result.name).split('\\').join('/');
  if (path.startsWith('../')) path = /\/((?:apps|libs|tools|test)\/.+)$/.exec(result.name)?.[1] ?? path;
  if (result.endTime > result.startTime)
    suites[path] = Math.round((result.endTime - result.startTime) / 100) / 10;
}
const kept = Object.fromEntries(
  Object.entries(suites)
    .filter(([path]) => existsSync(join(root, path)))
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(
  file,
  JSON.stringify(
    {
      about:
        'Seconds per Jest suite in a CI run, longest run first by jest.sequencer.js; regenerate with scripts/suite-durations.js',
      suites: kept,
    },
    null,
    2,
  ) + '\n',
);
console.log(`${Object.keys(kept).length} suites in ${relative(root, file)}`);
