import type { Step } from '@suite/browser-agent';
import { instructionFor, type ScriptElement } from './instruction-lines.js';

/**
 * A run as interpreter instructions, one line per passed step (secrets as placeholders), so a
 * passed run can be replayed without the model (`replayLlmScript`, `runHealingReplay`).
 */
export class ScriptRecorder {
  private readonly lines: string[] = [];
  private blocker: string | undefined;

  /** Lines that already ran (a resumed replay's, or the start page). */
  add(...lines: string[]): void {
    this.lines.push(...lines);
  }

  /** Records a passed step from the model, as it said it (placeholders, not revealed values). */
  passed(step: Step, element: ScriptElement | undefined, what: string): void {
    const line = instructionFor(step, element);
    if (line) this.lines.push(line);
    else this.blocker ??= `${what} cannot be written as an instruction`;
  }

  /** The script of a passed run, or why it has none. */
  result(): { script: string } | { scriptUnavailable: string } {
    return this.blocker ? { scriptUnavailable: this.blocker } : { script: this.lines.join('\n') };
  }
}
