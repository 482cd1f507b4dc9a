import { describe, expect, it } from '@jest/globals';
import { filesFromJson, isMcpToolEntry, jobOf, normalisePath, parseEnv, routeOf } from './project-files.js';

describe('project files', () => {
  it('maps api files to routes and leaves the reserved user routes out', () => {
    expect(routeOf('api/boards/list.ts')).toBe('/api/boards/list');
    expect(routeOf('api/index.ts')).toBe('/api');
    expect(routeOf('api/user.ts')).toBeUndefined();
    expect(routeOf('api/user/profile.ts')).toBeUndefined();
    expect(routeOf('api/_shared/db.ts')).toBeUndefined();
    expect(routeOf('api/data.json')).toBeUndefined();
  });

  it('keeps api/, hooks/ and .env and refuses paths that climb out', () => {
    expect(normalisePath('./api/a.ts')).toBe('api/a.ts');
    expect(normalisePath('README.md')).toBeUndefined();
    expect(() => normalisePath('api/../../etc/passwd.ts')).toThrow(/plain relative path/);
    expect(filesFromJson({ files: { 'api/a.ts': 'x', 'other.txt': 'y', '.env': 'A=1' } })).toEqual({
      'api/a.ts': 'x',
      '.env': 'A=1',
    });
    expect(() => filesFromJson({ files: { 'api/a.ts': 1 } })).toThrow(/must be a string/);
  });

  it('names jobs after their path under jobs/ and skips helpers', () => {
    expect(normalisePath('jobs/welcome.ts')).toBe('jobs/welcome.ts');
    expect(jobOf('jobs/welcome.ts')).toBe('welcome');
    expect(jobOf('jobs/mail/digest.mjs')).toBe('mail/digest');
    expect(jobOf('jobs/_shared.ts')).toBeUndefined();
    expect(jobOf('jobs/data.json')).toBeUndefined();
    expect(jobOf('jobs/two words.ts')).toBeUndefined();
  });

  it('keeps mcp/ files and takes every non-helper code file there as a tool', () => {
    expect(normalisePath('mcp/notes/add.ts')).toBe('mcp/notes/add.ts');
    expect(isMcpToolEntry('mcp/notes/add.ts')).toBe(true);
    expect(isMcpToolEntry('mcp/_lib/db.ts')).toBe(false);
    expect(isMcpToolEntry('mcp/schema.json')).toBe(false);
    expect(isMcpToolEntry('api/notes.ts')).toBe(false);
  });

  it('parses .env lines', () => {
    expect(parseEnv('A=1\n# c\nexport B="two words"\nC=\'x\'\nbad line')).toEqual({
      A: '1',
      B: 'two words',
      C: 'x',
    });
  });
});
