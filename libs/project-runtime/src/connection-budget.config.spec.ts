import { describe, expect, it } from '@jest/globals';
import { z } from '@suite/config';
import { connectionBudgetEnv, connectionBudgetOf } from './connection-budget.config.js';

const env = z.object(connectionBudgetEnv);

describe('DB_CONNECTION_BUDGET and DB_CONNECTION_WAIT_MS', () => {
  it('default to 20 connections and a 5 s wait, a quarter of them kept for the main database', () => {
    const settings = env.parse({});
    expect(settings).toEqual({ DB_CONNECTION_BUDGET: 20, DB_CONNECTION_WAIT_MS: 5_000 });
    const budget = connectionBudgetOf('project-host', settings);
    expect(budget).toMatchObject({ size: 20, reservedForMain: 5, tenantLimit: 15, waitMs: 5_000 });
    expect(budget.applicationName).toBe(`project-host:${process.pid}`);
  });

  it('refuses a budget below 2 and waits outside 100..60000 ms, naming the problem', () => {
    const messages = (input: Record<string, string>) =>
      env.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages({ DB_CONNECTION_BUDGET: '1' })).toEqual(['DB_CONNECTION_BUDGET: must be at least 2']);
    expect(messages({ DB_CONNECTION_BUDGET: 'many' })).toEqual(['DB_CONNECTION_BUDGET: must be a number']);
    expect(messages({ DB_CONNECTION_WAIT_MS: '50' })).toEqual([
      'DB_CONNECTION_WAIT_MS: must be between 100 and 60000',
    ]);
    expect(env.parse({ DB_CONNECTION_BUDGET: '6', DB_CONNECTION_WAIT_MS: '1000' })).toEqual({
      DB_CONNECTION_BUDGET: 6,
      DB_CONNECTION_WAIT_MS: 1_000,
    });
  });
});
