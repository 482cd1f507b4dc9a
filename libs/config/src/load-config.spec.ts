import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { envFields } from './env-fields.js';
import { loadConfig, maskConfig } from './load-config.js';

const schema = z.object({
  PORT: envFields.port(8080),
  DATABASE_URL: envFields.postgresUrl(),
  REDIS_URL: envFields.redisUrl(),
  API_KEYS: envFields.list(),
  DEBUG_SQL: envFields.bool(false),
});

const good = { DATABASE_URL: 'postgresql://u:p@db:5432/suite', REDIS_URL: 'redis://cache:6379' };

describe('loadConfig', () => {
  it('returns typed values with defaults applied', () => {
    const config = loadConfig('svc', schema, { ...good, API_KEYS: 'a, b,,c', DEBUG_SQL: 'yes' });
    expect(config).toEqual({ ...good, PORT: 8080, API_KEYS: ['a', 'b', 'c'], DEBUG_SQL: true });
  });

  it('names the bad variable and the value it got', () => {
    expect(() => loadConfig('jobs-api', schema, { ...good, PORT: 'eighty' })).toThrow(
      /Invalid environment for jobs-api:\n {2}- PORT must be a port number \(got "eighty"\)/,
    );
  });

  it('reports every problem at once, including missing variables', () => {
    try {
      loadConfig('svc', schema, { PORT: '70000', REDIS_URL: 'http://nope' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(3);
      expect(problems.join('\n')).toMatch(/PORT must be between 0 and 65535/);
      expect(problems.join('\n')).toMatch(/DATABASE_URL is required \(a postgres:\/\/ URL\) \(got unset\)/);
      expect(problems.join('\n')).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    }
  });

  it('treats an empty string as unset', () => {
    expect(loadConfig('svc', schema, { ...good, PORT: '' }).PORT).toBe(8080);
  });

  it('never repeats the value of a sensitive variable', () => {
    const secret = z.object({ TOKEN: z.string().min(32, 'must be at least 32 characters') });
    expect(() => loadConfig('svc', secret, { TOKEN: 'hunter2' }, { sensitive: ['TOKEN'] })).toThrow(
      /TOKEN must be at least 32 characters \(got \(hidden\)\)/,
    );
  });
});

describe('maskConfig', () => {
  it('hides sensitive values and passwords inside URLs', () => {
    expect(
      maskConfig({ DATABASE_URL: 'postgresql://u:secret@db/x', TOKEN: 'abc', PORT: 1 }, ['TOKEN']),
    ).toEqual({ DATABASE_URL: 'postgresql://u:***@db/x', TOKEN: '***', PORT: 1 });
  });
});
