// deploy/seccomp/browser-worker.json: the seccomp profile of the browser-worker container in
// compose and, installed on the nodes as profiles/browser-worker.json, of the browser-worker pods
// in Kubernetes. Chromium keeps its own sandbox there (uid 1000, never --no-sandbox), so the
// profile must let Chromium's namespace sandbox start and keep refusing what a container never
// needs. Where python3-seccomp, setpriv and Chromium are available, the profile is also loaded for
// real: Chromium, unprivileged and with no_new_privs, renders a page with its sandbox under the
// profile (alone, and launched by the worker's own launchLocalBrowser), ffmpeg encodes a video, and
// Chromium cannot start under the same profile without the namespace calls or without chroot.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exists, readCompose, repoPath } from './deploy-files.js';
import {
  allowListShape,
  allowedCalls,
  explainedAllowList,
  namedCalls,
  readProfile,
  refusedEverywhere,
  withoutNamespaceCalls,
  type Profile,
  type SyscallRule,
} from './seccomp-profiles.js';

const profilePath = 'deploy/seccomp/browser-worker.json';
const profile = readProfile(profilePath);
const base = readProfile('deploy/seccomp/project-host.json');

/** What Chromium's namespace sandbox calls: new user, PID and network namespaces, then chroot. */
const chromiumNeeds = ['clone', 'clone3', 'unshare', 'chroot'];
/** What bubblewrap needs and Chromium does not: mounts, a new root, a hostname. */
const bubblewrapOnly = ['mount', 'umount2', 'pivot_root', 'sethostname'];

describe('deploy/seccomp/browser-worker.json', () => {
  it('is an allow-list (EPERM for every call not named) for 64-bit x86 and ARM, each call named once, each group explained', () => {
    expect(allowListShape(profile)).toEqual(explainedAllowList);
  });

  it("has project-host's base: the same calls and argument rules, bubblewrap's mounts swapped for chroot", () => {
    const expected = new Set([...allowedCalls(base)].filter((n) => !bubblewrapOnly.includes(n)));
    expected.add('chroot');
    expect([...allowedCalls(profile)].sort()).toEqual([...expected].sort());
    const conditional = (p: Profile): Omit<SyscallRule, 'comment'>[] =>
      p.syscalls.filter((r) => r.args).map(({ names, action, args }) => ({ names, action, args }));
    expect(conditional(profile)).toEqual(conditional(base));
    expect(profile.architectures).toEqual(base.architectures);
  });

  it("allows what Chromium's namespace sandbox needs", () => {
    const allowed = allowedCalls(profile);
    for (const name of chromiumNeeds)
      expect({ name, allowed: allowed.has(name) }).toEqual({ name, allowed: true });
  });

  it('keeps refusing the kernel surface a container never needs, and the mounts Chromium does not make', () => {
    const everything = namedCalls(profile);
    for (const name of [...refusedEverywhere, ...bubblewrapOnly])
      expect({ name, listed: everything.has(name) }).toEqual({ name, listed: false });
  });

  it('is the profile compose gives browser-worker, which keeps uid 1000, no capabilities and no-new-privileges', () => {
    const worker = readCompose().services['browser-worker']!;
    const options = (worker.security_opt ?? []) as string[];
    expect(options.find((o) => /^seccomp[=:]/.test(o))).toBe(`seccomp=./${profilePath}`);
    expect(options).toContain('no-new-privileges:true');
    // Only the seccomp profile changes: Docker's AppArmor profile and /proc masks stay.
    expect(options.filter((o) => !/^(seccomp[=:]|no-new-privileges)/.test(o))).toEqual([]);
    expect(worker.cap_drop).toEqual(['ALL']);
    expect(worker.cap_add ?? []).toEqual([]);
    expect(worker.privileged ?? false).toBe(false);
    expect(worker.user).toBeUndefined(); // the image's uid 1000 (dockerfile.spec.ts)
    expect(JSON.stringify(worker)).not.toContain('--no-sandbox');
    expect(exists(profilePath)).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------
// The profile loaded with libseccomp, around an unprivileged Chromium
// ------------------------------------------------------------------------------------------------

const python = '/usr/bin/python3';
const loader = repoPath('test/deploy/seccomp-exec.py');
const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/lib/chromium/chromium';
const ffmpeg = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';
const ran = (command: string, ...args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const canLoad =
  process.platform === 'linux' &&
  ['x64', 'arm64'].includes(process.arch) &&
  existsSync(chromium) &&
  ran('setpriv', '--version') &&
  ran(python, '-c', 'import seccomp');
if (!canLoad) {
  console.warn(
    'NOTE: python3-seccomp (Debian), setpriv or Chromium is missing: deploy/seccomp/browser-worker.json is not loaded for real here.',
  );
}
const itLoaded = canLoad ? it : it.skip;
/** Chromium's sandbox refuses to start as root: as root, run it as nobody, as the container's uid 1000 would. */
const asRoot = process.getuid?.() === 0;

/** A page whose script must run in a renderer for the answer to appear. */
const page = 'data:text/html,<p id=answer></p><script>answer.textContent = 6 * 7</script>';

/** `command`, unprivileged and with no_new_privs, under `seccomp`, with a HOME of its own. */
function runUnder(
  seccomp: Profile,
  command: (home: string) => string[],
  cwd?: string,
): { status: number | null; output: string; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'seccomp-chromium-'));
  try {
    chmodSync(dir, 0o755);
    const home = join(dir, 'home');
    mkdirSync(home);
    if (asRoot) chownSync(home, 65534, 65534);
    const profileFile = join(dir, 'profile.json');
    writeFileSync(profileFile, JSON.stringify(seccomp));
    // The loader is copied out of the checkout, which the unprivileged user may not be able to read.
    const loaderCopy = join(dir, 'seccomp-exec.py');
    copyFileSync(loader, loaderCopy);
    const user = asRoot ? ['--reuid', '65534', '--regid', '65534', '--clear-groups'] : [];
    const run = spawnSync(
      'setpriv',
      [...user, '--no-new-privs', python, loaderCopy, profileFile, '--', ...command(home)],
      {
        cwd,
        encoding: 'utf8',
        timeout: 90_000,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
      },
    );
    return { status: run.status, output: `${run.stdout}${run.stderr}`, stdout: run.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Chromium, without --no-sandbox, rendering `page` (as compose's healthy worker would). */
function runChromium(seccomp: Profile): { status: number | null; output: string; dom: string } {
  const { status, output, stdout } = runUnder(seccomp, (home) => [
    chromium,
    '--headless',
    '--disable-gpu',
    `--user-data-dir=${join(home, 'profile')}`,
    '--dump-dom',
    page,
  ]);
  return { status, output, dom: stdout };
}

/** The worker's own launch: launchLocalBrowser (puppeteer, the worker's flags) from the build of libs/browser-agent. */
const workerLaunch = `
import { launchLocalBrowser } from '@suite/browser-agent';
const browser = await launchLocalBrowser({ executablePath: ${JSON.stringify(chromium)}, warn: (m) => console.error('WARNING', m) });
try {
  const page = await browser.newPage();
  await page.setContent('<p id=answer></p><script>answer.textContent = 6 * 7</script>');
  console.log('answer', await page.$eval('#answer', (e) => e.textContent));
} finally {
  await browser.close();
}`;
/**
 * The worker's default video capture (VIDEO_CAPTURE=x11grab): Xvfb, the worker's headful launch on
 * it and ffmpeg grabbing it, through the library as the worker uses it.
 */
const x11grabCapture = `
import { join } from 'node:path';
import { launchLocalBrowser, VideoRecorder, VirtualDisplay } from '@suite/browser-agent';
const display = await VirtualDisplay.start({ width: 1280, height: 720 });
const browser = await launchLocalBrowser({ display, executablePath: ${JSON.stringify(chromium)}, warn: (m) => console.error('WARNING', m) });
try {
  const page = await browser.newPage();
  const recorder = new VideoRecorder({ outputPath: join(process.env.HOME, 'video.mp4'), source: 'x11grab' });
  await recorder.start(page);
  await page.setContent('<p id=answer></p><script>answer.textContent = 6 * 7</script>');
  const video = await recorder.stopCapture();
  const file = await video.finished;
  console.log('answer', await page.$eval('#answer', (e) => e.textContent), 'video', video.source, file.ok, file.error ?? '');
} finally {
  await browser.close();
  await display.close();
}`;
const xvfb = process.env['XVFB_PATH'] ?? '/usr/bin/Xvfb';
const browserAgentBuilt = existsSync(repoPath('libs/browser-agent/dist/index.js'));
if (canLoad && !browserAgentBuilt)
  console.warn(
    'NOTE: libs/browser-agent is not built: the worker-launch checks under the profile are skipped.',
  );
/** The worker-launch check runs Node from the checkout as that user: only where it can read it. */
const checkoutReadable =
  !asRoot ||
  ran(
    'setpriv',
    '--reuid',
    '65534',
    '--regid',
    '65534',
    '--clear-groups',
    'test',
    '-r',
    repoPath('libs/browser-agent/dist/index.js'),
  );
if (canLoad && browserAgentBuilt && !checkoutReadable)
  console.warn(
    'NOTE: the checkout is not readable by other users (a private folder): the worker-launch check under the profile is skipped.',
  );
const itLaunched = browserAgentBuilt && checkoutReadable ? itLoaded : it.skip;
/** launchLocalBrowser's own script under `seccomp`. */
const runWorkerLaunch = (seccomp: Profile) =>
  runUnder(
    seccomp,
    () => [realpathSync(process.execPath), '--input-type=module', '-e', workerLaunch],
    repoPath(),
  );

const sandboxError = /No usable sandbox|Failed to move to new namespace/;

describe('deploy/seccomp/browser-worker.json loaded with libseccomp', () => {
  itLoaded(
    'an unprivileged Chromium with no_new_privs renders a page with its sandbox under the profile',
    () => {
      const result = runChromium(profile);
      expect({ status: result.status, sandboxError: sandboxError.test(result.output) }).toEqual({
        status: 0,
        sandboxError: false,
      });
      expect(result.dom).toContain('<p id="answer">42</p>');
      expect(result.output).not.toContain('skipped unknown system call');
    },
    120_000,
  );

  itLaunched(
    "the worker's own launch (launchLocalBrowser, in Node, through puppeteer) keeps the sandbox and drives a page",
    () => {
      const result = runWorkerLaunch(profile);
      expect({ status: result.status, output: result.output }).toEqual({
        status: 0,
        output: expect.stringContaining('answer 42'),
      });
      // As an unprivileged user the launcher adds no --no-sandbox, and so warns about nothing.
      expect(result.output).not.toContain('WARNING');
    },
    120_000,
  );

  (existsSync(ffmpeg) && existsSync(xvfb) ? itLaunched : it.skip)(
    'the x11grab capture works under the profile: Xvfb, the headful browser on it (its sandbox kept) and ffmpeg grabbing it',
    () => {
      const result = runUnder(
        profile,
        () => [realpathSync(process.execPath), '--input-type=module', '-e', x11grabCapture],
        repoPath(),
      );
      expect({ status: result.status, output: result.output }).toEqual({
        status: 0,
        output: expect.stringContaining('answer 42 video x11grab true'),
      });
      expect(result.output).not.toContain('WARNING');
    },
    120_000,
  );

  (existsSync(ffmpeg) ? itLoaded : it.skip)(
    "ffmpeg encodes the job's H.264 video under the profile",
    () => {
      const result = runUnder(profile, () => [
        ffmpeg,
        ...[
          '-hide_banner',
          '-loglevel',
          'error',
          '-f',
          'lavfi',
          '-i',
          'testsrc=duration=1:size=320x240:rate=10',
        ],
        ...[
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          '-movflags',
          'frag_keyframe+empty_moov',
          '-f',
          'mp4',
          'pipe:1',
        ],
      ]);
      expect({ status: result.status, bytes: result.stdout.length > 1000 }).toEqual({
        status: 0,
        bytes: true,
      });
    },
    120_000,
  );

  itLoaded(
    'without the namespace calls (a runtime-default profile), Chromium refuses to start without its sandbox',
    () => {
      const result = runChromium(withoutNamespaceCalls(profile, ['chroot']));
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(sandboxError);
      expect(result.dom).not.toContain('42');
    },
    120_000,
  );

  itLaunched(
    'without the namespace calls, the worker fails to launch Chromium and says why; it never falls back to --no-sandbox',
    () => {
      const result = runWorkerLaunch(withoutNamespaceCalls(profile, ['chroot']));
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/could not start Chromium at .*Chromium could not start its sandbox/s);
      expect(result.output).toMatch(sandboxError);
      expect(result.output).not.toContain('answer 42');
    },
    120_000,
  );

  itLoaded(
    'without chroot alone, Chromium cannot drop its file system access, and stops',
    () => {
      const result = runChromium({
        ...profile,
        syscalls: profile.syscalls.map((r) => ({ ...r, names: r.names.filter((n) => n !== 'chroot') })),
      });
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/chroot/);
      expect(result.dom).not.toContain('42');
    },
    120_000,
  );
});
