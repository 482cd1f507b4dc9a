// How much instruction text the interpreter reads, so one request (POST /v1/instructions/check, a
// job's creation, a worker parsing a job) cannot hold a process for seconds. A real test stays far
// below each.

export const INSTRUCTION_LIMITS = {
  /** Steps in one query (list items, lines, sentences, "then" and "and" parts). */
  steps: 200,
  /** Characters of one step outside its quoted text and URLs (a typed paragraph counts as one word). */
  stepLength: 1_000,
  /**
   * Characters the phrase rules may read in all, counting each retry of a step split at "and" or a
   * comma: about ten readings of a query of the longest allowed length (20,000 characters).
   */
  readCharacters: 200_000,
} as const;

/** The query is over one of `INSTRUCTION_LIMITS`; the message names the limit and its value. */
export class InstructionLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstructionLimitError';
  }
}

const number = (n: number): string => n.toLocaleString('en-US');

export function tooManySteps(): InstructionLimitError {
  return new InstructionLimitError(
    `the instructions have more than ${number(INSTRUCTION_LIMITS.steps)} steps (the limit is ${number(INSTRUCTION_LIMITS.steps)}); split the test into smaller tests`,
  );
}

export function stepTooLong(index: number, length: number): InstructionLimitError {
  return new InstructionLimitError(
    `step ${index} is ${number(length)} characters long outside quoted text and URLs (the limit is ${number(INSTRUCTION_LIMITS.stepLength)} per step); write one step per line or sentence`,
  );
}

export function tooMuchReading(): InstructionLimitError {
  return new InstructionLimitError(
    `the instructions need too much work to read (over ${number(INSTRUCTION_LIMITS.readCharacters)} characters of phrase matching); write one step per line or sentence, with fewer "and"s and commas`,
  );
}

/** Counts what the phrase rules read, and stops the parse once the budget is spent. */
export class ReadBudget {
  private left: number = INSTRUCTION_LIMITS.readCharacters;

  spend(text: string): void {
    this.left -= text.length;
    if (this.left < 0) throw tooMuchReading();
  }
}
