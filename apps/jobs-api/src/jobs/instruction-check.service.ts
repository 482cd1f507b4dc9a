import { Inject, Injectable } from '@nestjs/common';
import { interpretQuery, SUPPORTED_PHRASINGS } from '@suite/browser-agent';
import type { CreateJobDto } from '@suite/contracts';
import { issue, RunnerError } from '@suite/errors';
import { assertInstructionLimits, ModelRegistry } from '@suite/jobs';

/** What `POST /v1/instructions/check` answers: whether the job's steps can be read, and if not why. */
export interface InstructionCheck {
  model: string;
  /** False when the built-in interpreter cannot read a step; an LLM model reads any text. */
  readable: boolean;
  /** The steps as the built-in interpreter reads them; empty for an LLM model. */
  steps: { index: number; text: string; action: string }[];
  /** When not readable: what is wrong, in the words the job's summary would use. */
  summary?: string;
  /** When not readable: the steps not understood (1-based index, as written). */
  unknown?: { index: number; text: string }[];
  /** When not readable: the phrasings the interpreter understands. */
  phrasings?: string[];
  /**
   * With an LLM provider (the hybrid engine): the model that resolves the `unknown` steps on the
   * first run (stored for offline replay); the job is then readable.
   */
  resolved_by?: string;
}

/**
 * Reads a job request's instructions as the worker will, without queueing anything: the built-in
 * interpreter refuses a step it cannot read before any browser starts, so a page (or a client) can
 * say so at once instead of after a queued job fails. A request that is itself invalid is a 422,
 * as for `POST /v1/jobs` (so is a query over the interpreter's limits: too many steps, a step too
 * long); unreadable steps are a finding, not an error (200, `readable: false`).
 */
@Injectable()
export class InstructionCheckService {
  constructor(@Inject(ModelRegistry) private readonly models: ModelRegistry) {}

  /** `value` was validated at the edge (`RUNNER_INPUT`), as for `POST /v1/jobs`. */
  check(value: CreateJobDto): InstructionCheck {
    assertInstructionLimits(value.query);
    const model = this.models.resolve(value.model);
    if (model.provider !== 'interpreter') return { model: model.id, readable: true, steps: [] };
    const read = interpretQuery(value.query);
    // Within the step limits the reading itself can still run out of its budget: the same 422.
    if (!read.ok && read.limit)
      throw RunnerError.validation([issue.valueError(['body', 'query'], value.query, read.limit)]);
    const steps = read.steps.map((step, i) => ({ index: i + 1, text: step.text, action: step.action }));
    if (read.ok) return { model: model.id, readable: true, steps };
    // The hybrid engine: the worker hands the steps it cannot read to the LLM, once.
    const metadata = value.metadata as { resolve_with_model?: unknown } | undefined;
    if (this.models.gapModel && metadata?.resolve_with_model !== false) {
      return {
        model: model.id,
        readable: true,
        steps: read.steps.map((step) => ({ index: step.index, text: step.text, action: step.action })),
        unknown: read.unknown.map((u) => ({ index: u.index, text: u.text })),
        resolved_by: this.models.gapModel,
      };
    }
    return {
      model: model.id,
      readable: false,
      steps: [],
      summary: read.summary,
      unknown: read.unknown.map((u) => ({ index: u.index, text: u.text })),
      phrasings: SUPPORTED_PHRASINGS,
    };
  }
}
