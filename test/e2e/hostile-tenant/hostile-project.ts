import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The hostile project's files: the attacks (one module, copied into each folder since api/, hooks/
// and jobs/ import within themselves only) and the entries that run them from a route, an auth hook
// and a job. Hooks and jobs answer nobody, so they record each outcome in the project's database.

const ATTACKS = readFileSync(join(import.meta.dirname, 'attacks.ts'), 'utf8');

/** Name prefix of the users whose registration makes the hook run an attack (`attack:<name>`). */
export const HOOK_ATTACK_PREFIX = 'attack:';

/** Longest a call may run (the host's maximum): the slow attacks stop themselves before it. */
const CALL_MS = 30_000;
/** The loop's own budget, so that a loop is ended by the host quickly. */
const LOOP_MS = 3_000;

export function hostileFiles(env: Record<string, string>): Record<string, string> {
  return {
    'api/_attacks.ts': ATTACKS,
    'hooks/attacks.ts': ATTACKS,
    'jobs/_attacks.ts': ATTACKS,
    'api/attack.ts': `import { defineApi } from '@suite/platform-sdk';
      import { answer, OUTCOMES_TABLE, runAttack } from './_attacks';
      export default defineApi({ timeoutMs: ${CALL_MS}, handler: async (ctx) => {
        const name = String(ctx.request.query.name ?? '');
        if (name === 'setup') return (await ctx.db.query(OUTCOMES_TABLE), { ready: true });
        return answer(await runAttack(name, ctx, 'route'));
      } });`,
    'api/loop.ts': `import { defineApi } from '@suite/platform-sdk';
      import { answer, runAttack } from './_attacks';
      export default defineApi({ timeoutMs: ${LOOP_MS}, handler: async (ctx) => answer(await runAttack('cpu.loop', ctx, 'route')) });`,
    'api/enqueue.ts': `import { defineApi } from '@suite/platform-sdk';
      export default defineApi({ methods: ['POST'], handler: async ({ request, jobs }) => {
        const { job, attack } = request.body as { job: string; attack: string };
        return jobs.enqueue(job, { attack });
      } });`,
    'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
      import { runAndRecord } from './attacks';
      export default defineAuthHook({ timeoutMs: ${CALL_MS}, onUserCreated: async (ctx) => {
        const name = ctx.event.user?.name ?? '';
        if (name.startsWith(${JSON.stringify(HOOK_ATTACK_PREFIX)})) {
          await runAndRecord(name.slice(${HOOK_ATTACK_PREFIX.length}), ctx, 'hook');
        }
      } });`,
    'jobs/attack.ts': `import { defineJob } from '@suite/platform-sdk';
      import { runAndRecord } from './_attacks';
      export default defineJob<{ attack: string }>({ timeoutMs: ${CALL_MS}, handler: (ctx) => runAndRecord(ctx.job.payload.attack, ctx, 'job') });`,
    'jobs/loop.ts': `import { defineJob } from '@suite/platform-sdk';
      import { runAndRecord } from './_attacks';
      export default defineJob<{ attack: string }>({ timeoutMs: ${LOOP_MS}, handler: (ctx) => runAndRecord(ctx.job.payload.attack, ctx, 'job') });`,
    'jobs/noop.ts': `import { defineJob } from '@suite/platform-sdk';
      export default defineJob({ handler: () => null });`,
    '.env': Object.entries(env)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join('\n'),
  };
}
