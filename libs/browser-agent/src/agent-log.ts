export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogOutcome = 'started' | 'passed' | 'failed' | 'skipped' | 'info';

export interface AgentLogEntry {
  /** ISO 8601 timestamp. */
  time: string;
  /** 1-based, increasing within one log. */
  seq: number;
  level: LogLevel;
  /** 1-based step number, when the entry is about a step. */
  step?: number;
  /** How many steps the run has, on `started` entries when the engine knows it (the interpreter does). */
  stepCount?: number;
  action?: string;
  target?: string;
  strategy?: string;
  candidates?: number;
  outcome: LogOutcome;
  durationMs?: number;
  url?: string;
  error?: string;
  /**
   * Hybrid engine: who resolved the step, on its outcome entry: `interpreted`, `model` (handed to
   * the LLM), `replayed` (a stored resolution, no model call) or `healed` (re-resolved by the model).
   */
  resolvedBy?: 'interpreted' | 'model' | 'replayed' | 'healed';
  message: string;
}

export type AgentLogInput = Omit<AgentLogEntry, 'time' | 'seq' | 'level'> & { level?: LogLevel };

/** Receives one NDJSON line (with its trailing newline) per entry, in order. */
export type AgentLogSink = (line: string, entry: AgentLogEntry) => void | Promise<void>;

export interface AgentLogOptions {
  sink?: AgentLogSink;
  /** Applied to every string field of every entry before it is kept or written (secrets, tokens). */
  redact?: (text: string) => string;
  clock?: () => Date;
}

/**
 * The structured record of one agent run. Entries are kept in memory and streamed to the sink one
 * at a time, in order; a failing sink never fails the run (its first error is kept for the caller).
 */
export class AgentLog {
  private readonly kept: AgentLogEntry[] = [];
  private readonly secrets = new Set<string>();
  private seq = 0;
  private pending: Promise<void> = Promise.resolve();
  private sinkFailure: unknown;

  constructor(private readonly options: AgentLogOptions = {}) {}

  get entries(): readonly AgentLogEntry[] {
    return this.kept;
  }

  /** The first error the sink threw, if any. */
  get sinkError(): unknown {
    return this.sinkFailure;
  }

  write(input: AgentLogInput): AgentLogEntry {
    const { level, ...rest } = input;
    const entry = this.redactEntry({
      time: (this.options.clock?.() ?? new Date()).toISOString(),
      seq: ++this.seq,
      level: level ?? (input.outcome === 'failed' ? 'error' : 'info'),
      ...rest,
    });
    this.kept.push(entry);
    const sink = this.options.sink;
    if (sink) {
      const line = `${JSON.stringify(entry)}\n`;
      this.pending = this.pending
        .then(() => sink(line, entry))
        .catch((error: unknown) => {
          this.sinkFailure ??= error;
        });
    }
    return entry;
  }

  /** Masks `value` wherever it appears in later entries (a typed password, a token). */
  addSecret(value: string): void {
    // Very short values would mask ordinary words; they are left to the caller's `redact`.
    if (value.length >= 3) this.secrets.add(value);
  }

  /** The values masked so far (for masking them in a failure screenshot too). */
  get secretValues(): string[] {
    return [...this.secrets];
  }

  /** Applies the secret masks and the caller's `redact` to any text (summaries, step texts). */
  redactText(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('••••••');
    return this.options.redact ? this.options.redact(out) : out;
  }

  info(message: string, extra: Omit<AgentLogInput, 'message' | 'outcome'> = {}): AgentLogEntry {
    return this.write({ ...extra, outcome: 'info', message });
  }

  /** A run's closing entry, the same for both engines: `verdict: failed (step limit). …`, an error when it failed. */
  verdict(verdict: 'succeeded' | 'failed', summary: string, endedBy?: string): AgentLogEntry {
    return this.write({
      outcome: 'info',
      level: verdict === 'succeeded' ? 'info' : 'error',
      message: `verdict: ${verdict}${endedBy ? ` (${endedBy})` : ''}. ${summary}`,
    });
  }

  /** Resolves once every entry written so far has reached the sink. */
  async flush(): Promise<void> {
    await this.pending;
  }

  toNdjson(): string {
    return this.kept.map((entry) => `${JSON.stringify(entry)}\n`).join('');
  }

  private redactEntry(entry: AgentLogEntry): AgentLogEntry {
    if (!this.options.redact && this.secrets.size === 0) return entry;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry))
      out[key] = typeof value === 'string' && key !== 'time' ? this.redactText(value) : value;
    return out as unknown as AgentLogEntry;
  }
}

/** Parses NDJSON produced by `AgentLog`, skipping blank lines. */
export function parseAgentLog(ndjson: string): AgentLogEntry[] {
  return ndjson
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AgentLogEntry);
}

const RESOLVED_BY_WORDS: Readonly<Record<NonNullable<AgentLogEntry['resolvedBy']>, string>> = {
  interpreted: 'interpreted',
  model: 'resolved by the model',
  replayed: 'replayed without the model',
  healed: 'healed by the model',
};

/**
 * One readable line per entry, e.g.
 * `12:00:01.123 step 3 click "Sign in" [role+name, 1 match] passed 84 ms`.
 * Times are UTC, like the ISO timestamps they come from.
 */
export function formatLogLine(entry: AgentLogEntry): string {
  const time = entry.time.slice(11, 23);
  const flagged = entry.level === 'warn' || entry.level === 'error' ? `${entry.level}: ` : '';
  if (entry.step === undefined && !entry.action) {
    return `${time} ${flagged}${entry.message}${entry.error ? ` (${entry.error})` : ''}`;
  }
  const parts: string[] = [time];
  if (entry.step !== undefined) parts.push(`step ${entry.step}`);
  if (entry.action) parts.push(entry.action);
  if (entry.target) parts.push(`"${entry.target}"`);
  if (entry.strategy) {
    const count =
      entry.candidates === undefined
        ? ''
        : `, ${entry.candidates} match${entry.candidates === 1 ? '' : 'es'}`;
    parts.push(`[${entry.strategy}${count}]`);
  }
  if (entry.outcome !== 'info') parts.push(entry.outcome);
  if (entry.durationMs !== undefined) parts.push(`${Math.round(entry.durationMs)} ms`);
  if (entry.resolvedBy) parts.push(`(${RESOLVED_BY_WORDS[entry.resolvedBy]})`);
  const line = parts.join(' ');
  // "started" and "skipped" lines carry the step as written; "passed" lines stay short.
  const detail =
    entry.error ??
    (entry.outcome === 'started' || entry.outcome === 'skipped' || entry.outcome === 'info'
      ? entry.message
      : undefined);
  return detail ? `${line}: ${entry.outcome === 'info' ? flagged : ''}${detail}` : line;
}
