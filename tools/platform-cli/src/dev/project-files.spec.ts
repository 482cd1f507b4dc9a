import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectProjectFiles, isDeployedPath } from './project-files.js';

describe('isDeployedPath', () => {
  it.each([
    ['api/hello.ts', true],
    ['jobs/digest.ts', true],
    ['api/boards/list.mts', true],
    ['hooks/auth.ts', true],
    ['hooks/data.json', true],
    ['.env', true],
    ['api/sedX1a2b3', false],
    ['api/hello.ts~', false],
    ['public/app.js', false],
    ['api/node_modules/x/index.js', false],
    ['.env.example', false],
    ['.platform/project.json', false],
  ])('%s → %s', (path, deployed) => {
    expect(isDeployedPath(path)).toBe(deployed);
  });
});

describe('collectProjectFiles', () => {
  it('takes api/**, hooks/** code files and .env, with forward-slash paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-dev-files-'));
    mkdirSync(join(dir, 'api', 'boards'), { recursive: true });
    mkdirSync(join(dir, 'hooks'));
    mkdirSync(join(dir, 'public'));
    writeFileSync(join(dir, 'api', 'boards', 'list.ts'), 'list');
    writeFileSync(join(dir, 'api', 'notes.md'), 'not code');
    writeFileSync(join(dir, 'hooks', 'auth.ts'), 'hook');
    writeFileSync(join(dir, 'public', 'index.html'), '<p>');
    writeFileSync(join(dir, '.env'), 'A=1\n');
    expect(collectProjectFiles(dir)).toEqual({
      'api/boards/list.ts': 'list',
      'hooks/auth.ts': 'hook',
      '.env': 'A=1\n',
    });
    rmSync(dir, { recursive: true, force: true });
  });
});
