export { parseTestFile } from './test-files/test-file.parser.js';
export { TestFileError, type TestFile, type TestStep } from './test-files/test-file.js';
export { findTestFiles, loadTests, filterTests } from './test-files/test-file.loader.js';
export { junitXml } from './reporters/junit.reporter.js';
export { ctrfReport } from './reporters/ctrf.reporter.js';
export { githubAnnotations, githubSummary } from './reporters/github.reporter.js';
export type { RunResult, TestResult, Attempt } from './run/run-result.js';
