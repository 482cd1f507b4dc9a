/** `.env` lines `KEY=value` (quotes stripped, # comments skipped). */
export function parseEnv(text: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of (text ?? '').split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    env[match[1]!] = value;
  }
  return env;
}
