// The job page: follows one job live (status, steps as they run, log), then shows what it left
// (summary, video with a link from every step to its moment, failure screenshot, test script).
import {
  $,
  api,
  clock,
  duration,
  el,
  FINAL,
  jobDuration,
  jobTitle,
  keyPanel,
  KeyRefusedError,
  problemLines,
  statusBadge,
  streamEvents,
  timeEl,
} from './runner-core.js';

const show = (selector, visible) => ($(selector).hidden = !visible);

/** A summary's text as paragraphs, its "  - item" lines as lists (an unclear test's summary has two). */
function summaryBlocks(text) {
  const blocks = [];
  let list;
  for (const line of text.split('\n')) {
    const item = /^\s*[-•]\s+(.*)$/.exec(line);
    if (item) {
      if (!list) blocks.push((list = el('ul')));
      list.append(el('li', { text: item[1] }));
    } else {
      list = undefined;
      if (line.trim()) blocks.push(el('p', { text: line }));
    }
  }
  return blocks;
}

export function jobPage(root) {
  const id = root.dataset.jobId;
  let job;
  let run = 0; // bumps on every (re)start, so a stopped run's late answers are dropped
  let controller;
  let ticker;
  /** Steps by index: the record's, completed by live step events and the log's start times. */
  const steps = new Map();
  /** Wall-clock start of each step (ms), and of the recording, to link steps to the video. */
  const startedAt = new Map();
  let recordedAt; // time of the log's "recorded N s of video" entry, written as the capture stops
  let recordedMs; // N, as the recorder measured it
  let firstLogAt;
  let videoLoaded = false;
  let screenshotLoaded = false;
  let scriptFor = '';

  const error = (message) => {
    $('#job-error').textContent = message;
    show('#job-error', Boolean(message));
  };

  const renderFacts = () => {
    $('#job-title').textContent = jobTitle(job);
    document.title = `${jobTitle(job)} · Browser Test Runner`;
    const badge = $('#job-status');
    if (badge.textContent !== job.status) badge.replaceChildren(statusBadge(job.status));
    $('#job-created').replaceChildren(timeEl(job.created_at));
    $('#job-started').replaceChildren(timeEl(job.started_at));
    $('#job-finished').replaceChildren(timeEl(job.finished_at));
    $('#job-duration').textContent = jobDuration(job) || '—';
    $('#job-model').textContent = job.model;
    $('#job-env').textContent = job.env.replace('_', ' ');
    $('#job-start-url').textContent = job.initial_url;
    $('#job-query').textContent = job.query;
    show('#overview-section', true);
    show('#query-section', true);
    const waiting =
      job.status === 'queued' ? 'Waiting for a worker…' : job.status === 'running' ? 'Running…' : '';
    const summary = job.summary ?? waiting;
    if ($('#job-summary').dataset.text !== summary) {
      $('#job-summary').dataset.text = summary;
      $('#job-summary').replaceChildren(...summaryBlocks(summary));
    }
    show('#summary-section', Boolean(job.summary ?? waiting));
    show('#job-cancel', job.status === 'queued');
    show('#job-rerun', FINAL.includes(job.status));
  };

  const stepRow = (index) => {
    let row = $(`#job-steps tr[data-index="${index}"]`);
    if (row) return row;
    row = el(
      'tr',
      { 'data-index': String(index) },
      el('td', { 'data-label': 'Step', text: String(index) }),
      el('td', { 'data-label': 'Instruction' }),
      el('td', { 'data-label': 'Action' }),
      el('td', { 'data-label': 'Outcome' }),
      el('td', { 'data-label': 'Time' }),
      el('td', { 'data-label': 'Video' }),
      el('td', { 'data-label': 'Error' }),
    );
    const later = [...$('#job-steps').children].find((r) => Number(r.dataset.index) > index);
    $('#job-steps').insertBefore(row, later ?? null);
    return row;
  };

  const setText = (cell, text) => {
    if (cell.textContent !== text) cell.textContent = text;
  };

  const renderSteps = () => {
    for (const step of [...steps.values()].sort((a, b) => a.index - b.index)) {
      const row = stepRow(step.index);
      const cells = row.children;
      setText(cells[1], step.text);
      setText(cells[2], step.action ?? '');
      const status = step.status === 'started' ? 'running' : step.status;
      if (cells[3].textContent !== status) cells[3].replaceChildren(statusBadge(status));
      setText(cells[4], duration(step.duration_ms));
      setText(cells[6], step.error ?? '');
      row.classList.toggle('current', step.status === 'started');
    }
    show('#steps-section', steps.size > 0);
    renderVideoLinks();
  };

  /**
   * Where the recording starts on the wall clock: the "recorded N s" entry minus N (the recorder's
   * own measure; the file may hold the final frame a little longer), else the log's first entry.
   */
  const videoStart = () => {
    const video = $('#job-video');
    if (recordedAt && recordedMs) return recordedAt - recordedMs;
    if (recordedAt && Number.isFinite(video.duration)) return recordedAt - video.duration * 1000;
    return firstLogAt;
  };

  const renderVideoLinks = () => {
    const video = $('#job-video');
    const base = videoLoaded && video.readyState >= 1 ? videoStart() : undefined;
    for (const row of $('#job-steps').children) {
      const index = Number(row.dataset.index);
      const cell = row.children[5];
      const at = startedAt.get(index);
      if (base === undefined || at === undefined) {
        if (cell.childElementCount) cell.replaceChildren();
        continue;
      }
      const offset = Math.min(Math.max(0, (at - base) / 1000), Math.max(0, video.duration - 0.1));
      const label = clock(offset);
      if (cell.firstElementChild?.dataset.offset === String(offset)) continue;
      cell.replaceChildren(
        el('button', {
          type: 'button',
          class: 'link',
          'data-offset': String(offset),
          'aria-label': `Play step ${index} in the video from ${label}`,
          text: `▶ ${label}`,
          onclick: () => {
            video.currentTime = offset;
            video.scrollIntoView({ block: 'nearest' });
            void video.play().catch(() => undefined);
          },
        }),
      );
    }
  };

  const applyRecord = (record) => {
    job = record;
    for (const s of job.steps ?? []) steps.set(s.index, { ...steps.get(s.index), ...s });
    renderFacts();
    renderSteps();
    // Their sections show at once, their space kept (runner.css), so what is below them does not
    // move while a person is about to click it; the media arrive after.
    if (job.links.video && !videoLoaded) {
      show('#video-section', true);
      void loadVideo().catch(report);
    }
    if (job.links.screenshot && !screenshotLoaded) {
      show('#screenshot-section', true);
      void loadScreenshot().catch(report);
    }
    if (job.links.script) void loadScript().catch(report);
    else show('#script-section', false);
  };

  const applyStep = (s) => {
    steps.set(s.index, { ...steps.get(s.index), ...s });
    if (s.started_at) startedAt.set(s.index, Date.parse(s.started_at));
    renderSteps();
  };

  const loadVideo = async () => {
    videoLoaded = true;
    const res = await api(`/v1/jobs/${id}/video`);
    if (!res.ok) {
      videoLoaded = false;
      show('#video-section', false);
      return;
    }
    const video = $('#job-video');
    video.addEventListener('loadedmetadata', renderVideoLinks, { once: true });
    // #t=0.1: the first painted frame shows as the poster.
    video.src = `${URL.createObjectURL(await res.blob())}#t=0.1`;
    show('#video-section', true);
  };

  const loadScreenshot = async () => {
    screenshotLoaded = true;
    const res = await api(job.links.screenshot);
    if (!res.ok) {
      show('#screenshot-section', false);
      return;
    }
    const blob = await res.blob();
    // A data: URL: the page's policy lets images come from itself and data: only.
    const url = await new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
    const failed = [...steps.values()].find((s) => s.status === 'failed');
    $('#job-screenshot').alt = failed
      ? `The page when step ${failed.index} (${failed.text}) failed`
      : 'The page when the test failed';
    $('#job-screenshot').src = url;
    show('#screenshot-section', true);
  };

  const loadScript = async () => {
    const format = $('input[name="script-format"]:checked')?.value ?? 'playwright';
    if (scriptFor === format) return;
    scriptFor = format;
    const res = await api(`${job.links.script}?format=${format}`);
    show('#script-section', true);
    const pre = $('#job-script');
    if (res.ok) {
      pre.textContent = await res.text();
      $('#script-note').textContent =
        format === 'playwright'
          ? 'Save it as a .spec.mjs file and run npx playwright test.'
          : 'Save it as a .mjs file and run node with puppeteer installed.';
      $('#script-copy').disabled = false;
      return;
    }
    pre.textContent = '';
    $('#script-note').textContent = (await problemLines(res)).join(' ');
    $('#script-copy').disabled = true;
  };

  /** The log: readable text for people, and its entries' times for the step ↔ video links. */
  const loadLog = async () => {
    const [text, ndjson] = await Promise.all([
      api(`/v1/jobs/${id}/log`),
      api(`/v1/jobs/${id}/log`, { headers: { accept: 'application/x-ndjson' } }),
    ]);
    if (text.ok) $('#job-log').textContent = await text.text();
    show('#log-section', $('#job-log').textContent.length > 0);
    if (!ndjson.ok) return;
    for (const line of (await ndjson.text()).split('\n')) {
      if (!line.trim()) continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      const at = Date.parse(entry.time);
      firstLogAt ??= at;
      const recorded = /^recorded ([\d.]+) s of video/.exec(entry.message ?? '');
      if (recorded) {
        recordedAt = at;
        recordedMs = Number(recorded[1]) * 1000;
      }
      if (!entry.step) continue;
      if (entry.outcome === 'started') startedAt.set(entry.step, at);
      // A run seen from its middle: the steps so far come from the log.
      if (!FINAL.includes(job?.status) && !steps.has(entry.step) && entry.outcome === 'started') {
        steps.set(entry.step, {
          index: entry.step,
          text: entry.message,
          action: entry.action,
          status: 'started',
        });
      } else if (
        !FINAL.includes(job?.status) &&
        steps.has(entry.step) &&
        entry.outcome !== 'started' &&
        entry.outcome !== 'info'
      ) {
        steps.set(entry.step, {
          ...steps.get(entry.step),
          status: entry.outcome,
          duration_ms: entry.durationMs ?? null,
          error: entry.error ?? null,
        });
      }
    }
    renderSteps();
  };

  const report = (e) => {
    if (e instanceof KeyRefusedError || e?.name === 'AbortError') return;
    error(e?.message ?? String(e));
  };

  const stop = () => {
    run++;
    controller?.abort();
    clearInterval(ticker);
  };

  const start = async () => {
    stop();
    const mine = ++run;
    controller = new AbortController();
    error('');
    try {
      const res = await api(`/v1/jobs/${id}`);
      if (mine !== run) return;
      if (!res.ok)
        return error(
          res.status === 404 ? 'No such job for this API key.' : (await problemLines(res)).join(' '),
        );
      applyRecord(await res.json());
      await loadLog();
      if (mine !== run) return;
      ticker = setInterval(() => {
        if (job.status === 'running') $('#job-duration').textContent = jobDuration(job) || '—';
      }, 1000);
      // Follow until the job ends; a dropped stream is picked up again.
      for (let attempt = 0; !FINAL.includes(job.status) && mine === run && attempt < 20; attempt++) {
        await streamEvents(
          `/v1/jobs/${id}/events`,
          (event, data) => {
            if (mine !== run) return;
            if (event === 'job') {
              applyRecord(data);
              if (FINAL.includes(data.status)) void loadLog().catch(report);
            } else if (event === 'step') applyStep(data);
            else if (event === 'log') {
              $('#job-log').textContent += `${data.line}\n`;
              show('#log-section', true);
            }
          },
          controller.signal,
        ).catch((e) => {
          if (e instanceof KeyRefusedError || e?.name === 'AbortError') throw e;
          return new Promise((resolve) => setTimeout(resolve, 2000));
        });
      }
    } catch (e) {
      report(e);
    }
  };

  $('#job-cancel').addEventListener('click', async () => {
    const button = $('#job-cancel');
    button.disabled = true;
    try {
      const res = await api(`/v1/jobs/${id}`, { method: 'DELETE' });
      const body = await res.json().catch(() => ({}));
      $('#job-action-note').textContent = res.ok ? body.message : (await problemLines(res)).join(' ');
      const fresh = await api(`/v1/jobs/${id}`);
      if (fresh.ok) applyRecord(await fresh.json());
    } catch (e) {
      report(e);
    } finally {
      button.disabled = false;
    }
  });

  $('#job-rerun').addEventListener('click', async () => {
    const button = $('#job-rerun');
    button.disabled = true;
    try {
      const body = {
        query: job.query,
        initial_url: job.initial_url,
        model: job.model,
        env: job.env,
        highlight_mouse: job.highlight_mouse,
        ...(job.metadata ? { metadata: job.metadata } : {}),
      };
      const res = await api('/v1/jobs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) return error(`Run again was refused: ${(await problemLines(res)).join(' ')}`);
      location.href = `/jobs/${(await res.json()).id}`;
    } catch (e) {
      report(e);
    } finally {
      button.disabled = false;
    }
  });

  for (const radio of document.querySelectorAll('input[name="script-format"]')) {
    radio.addEventListener('change', () => void loadScript().catch(report));
  }
  $('#script-copy').addEventListener('click', async () => {
    const done = $('#script-copied');
    try {
      await navigator.clipboard.writeText($('#job-script').textContent);
      done.textContent = 'Copied.';
    } catch {
      getSelection().selectAllChildren($('#job-script'));
      done.textContent = 'Selected; press Ctrl+C to copy.';
    }
  });

  keyPanel($('#key-slot'), { start: () => void start(), stop });
}
