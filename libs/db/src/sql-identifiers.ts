/** A Postgres identifier in double quotes, safe for any name (quotes inside are doubled). */
export function quoteIdent(name: string): string {
  if (name.length === 0 || name.includes('\0'))
    throw new Error(`invalid SQL identifier: ${JSON.stringify(name)}`);
  return `"${name.replaceAll('"', '""')}"`;
}
