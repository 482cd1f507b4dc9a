import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deniedSyscalls, seccompArch, seccompFilter } from './seccomp-filter.js';

// The filter as the kernel applies it: bubblewrap loads it, then ordinary programs try what it forbids.

function underFilter(command: string[]): { status: number | null; output: string } {
  const arch = seccompArch();
  if (!arch) throw new Error(`no filter for ${process.arch}`);
  const dir = mkdtempSync(join(tmpdir(), 'seccomp-spec-'));
  const file = join(dir, 'filter.bpf');
  writeFileSync(file, seccompFilter(arch));
  const fd = openSync(file, 'r');
  try {
    const result = spawnSync(
      'bwrap',
      [
        '--unshare-user',
        '--unshare-net',
        '--die-with-parent',
        '--seccomp',
        '3',
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        ...command,
      ],
      { stdio: ['ignore', 'pipe', 'pipe', fd], encoding: 'utf8', timeout: 20_000 },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the seccomp filter', () => {
  it('is a whole number of BPF instructions, small enough for the kernel (≤ 4096)', () => {
    for (const arch of ['x64', 'arm64'] as const) {
      const bytes = seccompFilter(arch);
      expect(bytes.length % 8).toBe(0);
      expect(bytes.length / 8).toBeLessThanOrEqual(4096);
      expect(deniedSyscalls(arch)).toEqual(
        expect.arrayContaining(['ptrace', 'unshare', 'mount', 'bpf', 'keyctl']),
      );
    }
  });

  it('lets an ordinary program run', () => {
    expect(underFilter(['/bin/sh', '-c', 'echo fine'])).toEqual({ status: 0, output: 'fine\n' });
  });

  it('refuses new processes (a shell cannot fork)', () => {
    const result = underFilter(['/bin/sh', '-c', '/bin/true; echo after']);
    expect(result.output).toMatch(/fork/i);
    expect(result.output).not.toContain('after');
  });

  it('refuses namespaces and mounts', () => {
    const result = underFilter(['/usr/bin/unshare', '--user', '/bin/true']);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/Operation not permitted/);
  });

  it('refuses network sockets but keeps unix sockets', () => {
    const node = process.execPath;
    const probe = `const net = require('node:net');
      const s = net.connect(9, '127.0.0.1'); s.on('error', (e) => { console.log(e.code);
      const u = net.createServer().listen('\\0seccomp-spec', () => { console.log('unix ok'); u.close(); }); });`;
    const result = underFilter([node, '-e', probe]);
    expect(result.output).toContain('EAFNOSUPPORT');
    expect(result.output).toContain('unix ok');
  });
});
