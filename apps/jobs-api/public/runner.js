// The runner's pages: the hub (run a test, your jobs) and a job's live page. No framework, no CDN.
import { $ } from './runner-core.js';
import { hubPage } from './runner-hub.js';
import { jobPage } from './runner-job.js';

const jobRoot = $('[data-job-id]');
if (jobRoot) jobPage(jobRoot);
const hub = $('#recent-jobs');
if (hub) hubPage();
