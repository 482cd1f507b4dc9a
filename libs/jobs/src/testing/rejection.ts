import { RunnerError } from '@suite/errors';

/** The RunnerError a call rejected with, for asserting on its code and message. */
export async function runnerFailure(call: Promise<unknown>): Promise<RunnerError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RunnerError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}
