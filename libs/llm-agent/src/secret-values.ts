/**
 * Secrets from the job's metadata (e.g. `metadata.secrets = { password: "…" }`). The model only ever
 * sees `{{secret.NAME}}`; the value is put back only where it is typed into the page.
 */
export class SecretValues {
  private readonly entries: Array<{ name: string; value: string; placeholder: string }>;

  constructor(secrets: Readonly<Record<string, string>> = {}) {
    this.entries = Object.entries(secrets)
      .filter(([, value]) => typeof value === 'string' && value !== '')
      .map(([name, value]) => ({ name, value, placeholder: `{{secret.${name}}}` }))
      // Longest first, so a secret that contains another is replaced whole.
      .sort((a, b) => b.value.length - a.value.length);
  }

  get values(): string[] {
    return this.entries.map((e) => e.value);
  }

  get placeholders(): string[] {
    return this.entries.map((e) => e.placeholder);
  }

  /** Replaces every secret value by its placeholder. */
  redact(text: string): string {
    let out = text;
    for (const entry of this.entries) out = out.split(entry.value).join(entry.placeholder);
    return out;
  }

  /** Replaces placeholders by their values (for what is typed into the page). */
  reveal(text: string): string {
    let out = text;
    for (const entry of this.entries) out = out.split(entry.placeholder).join(entry.value);
    return out;
  }
}

/** `metadata.secrets` as a name → value map, ignoring anything that is not a string. */
export function secretsFromMetadata(metadata: unknown): Record<string, string> {
  const secrets = (metadata as { secrets?: unknown } | null | undefined)?.secrets;
  if (!secrets || typeof secrets !== 'object' || Array.isArray(secrets)) return {};
  return Object.fromEntries(
    Object.entries(secrets as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
