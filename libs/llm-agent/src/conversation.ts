import type { SecretValues } from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import type { LlmRunLimits } from './llm-limits.js';
import type { LlmMessage, LlmResponse, ToolResult } from './llm-provider.js';
import { formatSnapshot, type PageSnapshot, takeSnapshot } from './page-snapshot.js';

const OMITTED = '(earlier observation omitted to keep the prompt small)';
const CURRENT_PAGE = '\nCurrent page:\n';

export const SYSTEM_PROMPT = [
  'You are a browser test agent. You carry out the test instructions in a real browser using only the tools.',
  'Each observation shows the URL, the title, the elements with refs like [e3], and the page text. Use refs from the latest observation only.',
  'Verify every expectation of the test with assert_* tools (assert_text, assert_title, assert_url, assert_element_text, assert_value, assert_state). An expectation you did not assert is not verified.',
  'When finished, call done. passed=true only when your assertions proved every expectation; passed=false when the page did not behave as the test expects or you could not do a step.',
  'Do not repeat an action that did not work; try something else or call done with passed=false.',
].join('\n');

/** Where a replay handed over to the model. */
export interface ResumeFrom {
  /** The recorded steps that ran and passed, as instruction lines (secrets as placeholders). */
  done: readonly string[];
  /** The recorded step that no longer works, and why. */
  failed: { text: string; error: string };
  /** Assertions among the steps that already ran: they count towards the verdict. */
  assertionsPassed: number;
}

/**
 * One step of an interpreter run handed to the model (hybrid engine): the model does that step
 * only, on the page as the earlier steps left it.
 */
export interface StepTask {
  /** 1-based position of the step in the test. */
  index: number;
  /** The step as written. */
  text: string;
  /** Why the interpreter handed it over, in words ("it could not read it", "no element matched …"). */
  why: string;
  /** The step is a check: it may only be verified with assert_* tools, never made true by acting. */
  check: boolean;
  /** Actions of this step that already ran (a stored resolution replayed up to where it broke). */
  done?: readonly string[];
}

interface Observation {
  text: string;
  imageJpegBase64?: string;
}

/**
 * What the model is told: the task, one observation of the page per turn, its own answers and the
 * tool results. Secrets appear only as placeholders; old observations shrink to keep the prompt small.
 */
export class Conversation {
  readonly messages: LlmMessage[] = [];
  private readonly observations: Array<{ text?: string; imageJpegBase64?: string }> = [];
  /** The latest observation's snapshot (refs, elements). */
  snapshot: PageSnapshot | undefined;

  constructor(
    private readonly page: Page,
    private readonly limits: LlmRunLimits,
    private readonly secrets: SecretValues,
    private readonly screenshot: boolean,
  ) {}

  /** The first message: the task and the page as it is now. */
  async begin(task: {
    query: string;
    initialUrl?: string;
    resume?: ResumeFrom;
    step?: StepTask;
  }): Promise<void> {
    const first = await this.observe();
    const message: LlmMessage = { ...first, role: 'user', text: `${this.taskText(task)}${first.text}` };
    this.messages.push(message);
    this.observations.push(message as { text?: string });
  }

  /** The model's answer; both APIs refuse an assistant turn with neither text nor tool calls. */
  answered(response: LlmResponse): void {
    const calls = response.toolCalls;
    const text = response.text || (calls.length === 0 ? '(no answer)' : undefined);
    this.messages.push({ role: 'assistant', ...(text ? { text } : {}), toolCalls: calls });
  }

  /** Asks for a tool call after an answer without one. */
  nudge(): void {
    this.messages.push({
      role: 'user',
      text: 'Answer with a tool call. Call done(passed, summary) when the test is finished.',
    });
  }

  /** The tool results of a turn with a fresh observation of the page. */
  async results(results: ToolResult[]): Promise<void> {
    const observation = await this.observe();
    const message: LlmMessage = { role: 'tool', results, ...observation };
    this.messages.push(message);
    this.observations.push(message as { text?: string });
    this.trimObservations();
  }

  private taskText(task: {
    query: string;
    initialUrl?: string;
    resume?: ResumeFrom;
    step?: StepTask;
  }): string {
    const { resume, step } = task;
    if (step) return this.stepText(task.query, step);
    const start = resume
      ? `An earlier passing run of this test was replayed. These recorded steps already ran and passed; do not repeat them:\n${resume.done.map((line, i) => `${i + 1}. ${line}`).join('\n')}\nThe next recorded step no longer works: "${resume.failed.text}" (${resume.failed.error}). Continue the test from the current page.\n`
      : task.initialUrl
        ? `The browser has opened ${task.initialUrl}.\n`
        : '';
    const secrets =
      this.secrets.placeholders.length > 0
        ? `Secrets you can type (write the placeholder exactly; the real value is filled in): ${this.secrets.placeholders.join(', ')}\n`
        : '';
    return `${start}${secrets}Test instructions:\n${this.secrets.redact(task.query)}\n${CURRENT_PAGE}`;
  }

  private stepText(query: string, step: StepTask): string {
    const secrets =
      this.secrets.placeholders.length > 0
        ? `Secrets you can type (write the placeholder exactly; the real value is filled in): ${this.secrets.placeholders.join(', ')}\n`
        : '';
    const done =
      step.done && step.done.length > 0
        ? `These actions of that step already ran; do not repeat them:\n${step.done.map((line) => `- ${line}`).join('\n')}\n`
        : '';
    const how = step.check
      ? 'This step is a check: verify it with assert_* tools only (do not click, type or change the page), then call done. passed=true only when your assertions proved it.'
      : 'Do this step only, not the steps after it; then call done(passed=true). Call done(passed=false) when the page does not let you do it.';
    return `A test is running; the steps before step ${step.index} already ran and passed. Its instructions, for context:\n${this.secrets.redact(query)}\n\nCarry out step ${step.index} only: "${this.secrets.redact(step.text)}" (the interpreter handed it over: ${step.why}).\n${done}${how}\n${secrets}${CURRENT_PAGE}`;
  }

  private async observe(): Promise<Observation> {
    this.snapshot = await takeSnapshot(this.page, {
      maxElements: this.limits.maxElements,
      maxTextChars: this.limits.maxTextChars,
    });
    let image: string | undefined;
    if (this.screenshot) {
      image = await this.page
        .screenshot({ type: 'jpeg', quality: 60, encoding: 'base64' })
        .then((data) => String(data))
        .catch(() => undefined);
    }
    return {
      text: this.secrets.redact(formatSnapshot(this.snapshot)),
      ...(image ? { imageJpegBase64: image } : {}),
    };
  }

  /** Keeps the last few observations whole; older ones shrink to a note and lose their screenshot. */
  private trimObservations(): void {
    const old = this.observations.length - this.limits.keepObservations;
    for (let i = 0; i < old; i++) {
      const message = this.observations[i];
      if (!message || message.text === undefined) continue;
      const at = message.text.indexOf(CURRENT_PAGE);
      message.text = at >= 0 ? `${message.text.slice(0, at + CURRENT_PAGE.length)}${OMITTED}` : OMITTED;
      delete message.imageJpegBase64;
    }
  }
}
