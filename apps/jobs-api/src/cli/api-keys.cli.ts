import { createMainClient } from '@suite/db';
import { ApiKeyService, PrismaApiKeyRepository } from '@suite/jobs';
import { parseArgs } from 'node:util';

const usage = `Manage runner API keys (stored hashed; the key is shown once).

  pnpm api-keys create --owner <owner> [--name <label>]
  pnpm api-keys list [--owner <owner>]
  pnpm api-keys revoke <key-id | key-prefix>

Needs DATABASE_URL (make start's database: postgresql://postgres@127.0.0.1:5432/suite).`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { owner: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, target] = positionals;
  if (values.help || !command) {
    console.log(usage);
    return command || values.help ? 0 : 2;
  }
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is required (a postgres:// URL)');
    return 2;
  }
  const db = createMainClient(url, { maxConnections: 1 });
  const keys = new ApiKeyService(new PrismaApiKeyRepository(db), []);
  try {
    switch (command) {
      case 'create': {
        if (!values.owner) throw new Error('--owner is required');
        const created = await keys.create(values.owner, values.name);
        console.log(JSON.stringify(created, null, 2));
        console.error('Keep the key now: only its hash is stored.');
        return 0;
      }
      case 'list':
        console.log(JSON.stringify(await keys.list(values.owner), null, 2));
        return 0;
      case 'revoke': {
        if (!target) throw new Error('give the key id or its prefix');
        const count = await keys.revoke(target);
        console.log(count ? `revoked ${count} key(s)` : 'no active key matched');
        return count ? 0 : 1;
      }
      default:
        console.error(`unknown command "${command}"\n\n${usage}`);
        return 2;
    }
  } finally {
    await db.$disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
