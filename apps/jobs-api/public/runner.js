// The runner's pages: the hub (run a test, your jobs), a job's live page, your suites and a
// suite run. No framework, no CDN.
import { $ } from './runner-core.js';
import { hubPage } from './runner-hub.js';
import { jobPage } from './runner-job.js';
import { suiteRunPage, suitesPage } from './runner-suites.js';

const jobRoot = $('main[data-job-id]');
if (jobRoot) jobPage(jobRoot);
const hub = $('#recent-jobs');
if (hub) hubPage();
if ($('main[data-suites]')) suitesPage();
const runRoot = $('main[data-run-id]');
if (runRoot) suiteRunPage(runRoot);
