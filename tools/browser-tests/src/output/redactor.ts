const MASK = '••••••';

/** Replaces secrets (the API key, the tests' secret values) wherever they would be printed or written. */
export class Redactor {
  private readonly values: string[];

  constructor(values: Iterable<string | undefined>) {
    // Longest first, so a secret that contains another is masked whole; very short values would
    // mask ordinary words, so they are left to the runner's own masking.
    this.values = [
      ...new Set([...values].filter((v): v is string => typeof v === 'string' && v.length >= 3)),
    ].sort((a, b) => b.length - a.length);
  }

  text(value: string): string {
    let out = value;
    for (const secret of this.values) out = out.split(secret).join(MASK);
    return out;
  }

  /** A copy of a JSON-like value with every string redacted. */
  deep<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.deep(v)) as T;
    if (value instanceof Date || value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.deep(v)])) as T;
  }
}
