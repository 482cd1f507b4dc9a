import { describe, expect, it } from '@jest/globals';
import type { SandboxEffect } from '../sandbox/sandbox-protocol.js';
import { EffectError } from './effect-error.js';
import { ProjectEffects } from './project-effects.js';
import type { ProjectDatabase } from './project-database.js';
import type { ProjectJobs } from './project-jobs.js';
import type { ProjectMail } from './project-mail.js';
import type { ProjectPush } from './project-push.js';

const PROJECT = '0195f3a2-7c1d-7e4b-9a3c-2b1d4e5f6a7b';
const effect = (name: SandboxEffect['effect'], payload: unknown = {}): SandboxEffect => ({
  type: 'effect',
  rid: 1,
  effect: name,
  payload,
});

function effects(db: Partial<ProjectDatabase>) {
  return new ProjectEffects(db as ProjectDatabase, {} as ProjectMail, {} as ProjectJobs, {} as ProjectPush);
}

describe('ProjectEffects', () => {
  it('hands the call to its service for the asking project', async () => {
    const seen: unknown[] = [];
    const service = effects({
      query: async (projectId, input) => {
        seen.push(projectId, input);
        return { rows: [], rowCount: 0 };
      },
    });
    await expect(service.perform(PROJECT, effect('db.query', { sql: 'SELECT 1' }))).resolves.toEqual({
      rows: [],
      rowCount: 0,
    });
    expect(seen).toEqual([PROJECT, { sql: 'SELECT 1' }]);
  });

  it("passes a refusal's message on, but never the words of a host failure", async () => {
    const refusing = effects({ query: () => Promise.reject(new EffectError('ctx.db.query: nope')) });
    await expect(refusing.perform(PROJECT, effect('db.query'))).rejects.toThrow('ctx.db.query: nope');
    const broken = effects({ query: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')) });
    await expect(broken.perform(PROJECT, effect('db.query'))).rejects.toThrow(
      'ctx.db.query: the host could not do this right now; try again',
    );
  });

  it('offers nothing to deploy-time inspection sandboxes', async () => {
    await expect(effects({}).perform(`deploy:${PROJECT}`, effect('db.query'))).rejects.toThrow(
      'db.query is not available while deploying',
    );
  });
});
