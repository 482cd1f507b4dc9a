/** The URL pointed at another database of the same server (credentials and options kept). */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** The `schema` parameter of a Prisma-style connection URL, if any. */
export function urlSchema(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('schema') || undefined;
  } catch {
    return undefined;
  }
}
