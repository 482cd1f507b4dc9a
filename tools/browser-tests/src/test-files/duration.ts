const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, min: 60_000, h: 3_600_000 };

/** "90s", "2m", "1500ms" or a number of seconds → milliseconds; undefined when unreadable. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value * 1_000 : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/i.exec(value);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNITS[(match[2] ?? 's').toLowerCase()]!;
  return ms > 0 ? ms : undefined;
}
