import type { Step } from './step-types.js';

/**
 * Secrets from the job's metadata (e.g. `metadata.secrets = { password: "…" }`). Outside the page
 * they only ever appear as `{{secret.NAME}}` (what the model sees, what scripts record); the value
 * is put back only where it is typed into the page. The agent log masks them too (`AgentLog.addSecret`).
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

  /** The step as it reaches the page (typed text, URLs, expected texts); its `text`, which the log shows, keeps the placeholders. */
  revealStep(step: Step): Step {
    const out: Record<string, unknown> = { ...step };
    for (const [key, value] of Object.entries(step))
      if (key !== 'text' && typeof value === 'string') out[key] = this.reveal(value);
    return out as unknown as Step;
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

/** Fields whose typed value is kept out of the log, the results and the summary. */
const SECRET_FIELD =
  /pass(?:word|code|phrase)?|secret|token|api[\s_-]?key|\bpin\b|otp|one[\s-]time|cvc|cvv|security code/i;

/** Values the steps type into fields that look secret ("Password", "API key"), to mask in the log. */
export function secretFieldValues(steps: readonly Step[]): string[] {
  return steps.flatMap((step) =>
    step.action === 'type' && step.target && SECRET_FIELD.test(step.target.name) ? [step.value] : [],
  );
}
