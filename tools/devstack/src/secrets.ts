import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DevSecrets {
  apiKey: string;
  adminToken: string;
}

/** Generated once and kept in .data/ (mode 600) so restarts keep working keys. */
export function loadOrCreateSecrets(dataDir: string): DevSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DevSecrets;
  mkdirSync(dataDir, { recursive: true });
  const secrets: DevSecrets = {
    apiKey: `sk_dev_${randomBytes(24).toString('base64url')}`,
    adminToken: `adm_dev_${randomBytes(24).toString('base64url')}`,
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
