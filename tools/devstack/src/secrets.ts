import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DevSecrets {
  apiKey: string;
  adminToken: string;
  authSecret: string;
}

/** Generated once and kept in .data/ (mode 600) so restarts keep working keys. */
export function loadOrCreateSecrets(dataDir: string): DevSecrets {
  const file = join(dataDir, 'secrets.json');
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<DevSecrets>) : {};
  const secrets: DevSecrets = {
    apiKey: saved.apiKey ?? `sk_dev_${randomBytes(24).toString('base64url')}`,
    adminToken: saved.adminToken ?? `adm_dev_${randomBytes(24).toString('base64url')}`,
    authSecret: saved.authSecret ?? randomBytes(48).toString('base64url'),
  };
  // Secrets added by newer versions are filled in without replacing the ones already in use.
  if (JSON.stringify(saved) !== JSON.stringify(secrets)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}
