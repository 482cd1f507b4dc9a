import { describe, expect, it } from '@jest/globals';
import { AgentLog, type AgentLogEntry, formatLogLine, parseAgentLog } from './agent-log.js';

const fixedClock = () => new Date('2025-01-02T12:00:01.123Z');

describe('AgentLog', () => {
  it('streams one NDJSON line per entry, in order, even when the sink is slow', async () => {
    const lines: string[] = [];
    const log = new AgentLog({
      clock: fixedClock,
      sink: async (line) => {
        await new Promise((resolve) => setTimeout(resolve, lines.length === 0 ? 30 : 0));
        lines.push(line);
      },
    });
    log.write({ outcome: 'started', step: 1, action: 'navigate', message: 'open example.com' });
    log.write({
      outcome: 'passed',
      step: 1,
      action: 'navigate',
      durationMs: 84,
      url: 'https://example.com/',
      message: 'opened',
    });
    log.info('verdict: succeeded');
    await log.flush();

    expect(lines).toHaveLength(3);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const entries = parseAgentLog(lines.join(''));
    expect(entries).toEqual(log.entries);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(entries[0]).toEqual({
      time: '2025-01-02T12:00:01.123Z',
      seq: 1,
      level: 'info',
      outcome: 'started',
      step: 1,
      action: 'navigate',
      message: 'open example.com',
    });
    expect(log.toNdjson()).toBe(lines.join(''));
  });

  it('marks failures as errors unless told otherwise', () => {
    const log = new AgentLog();
    expect(log.write({ outcome: 'failed', step: 2, message: 'x', error: 'boom' }).level).toBe('error');
    expect(log.write({ outcome: 'info', level: 'warn', message: 'careful' }).level).toBe('warn');
  });

  it('closes a run with its verdict, as an error when it failed and naming why it ended when told', () => {
    const log = new AgentLog({ clock: fixedClock });
    log.verdict('succeeded', 'All 2 steps passed; 1 assertion held.');
    log.verdict('failed', 'The agent did not finish within 4 steps (step limit of 4).', 'step limit');
    expect(log.entries.map(({ level, outcome, message }) => ({ level, outcome, message }))).toEqual([
      {
        level: 'info',
        outcome: 'info',
        message: 'verdict: succeeded. All 2 steps passed; 1 assertion held.',
      },
      {
        level: 'error',
        outcome: 'info',
        message: 'verdict: failed (step limit). The agent did not finish within 4 steps (step limit of 4).',
      },
    ]);
  });

  it('redacts every text field before keeping or writing an entry', async () => {
    const lines: string[] = [];
    const log = new AgentLog({
      sink: (line) => void lines.push(line),
      redact: (text) => text.replaceAll('hunter2', '[redacted]'),
    });
    log.write({
      outcome: 'failed',
      step: 3,
      action: 'type',
      target: 'hunter2',
      url: 'https://x.test/?pw=hunter2',
      message: 'type "hunter2" into the password field',
      error: 'field rejected hunter2',
    });
    await log.flush();
    expect(lines.join('')).not.toContain('hunter2');
    expect(log.entries[0]).toMatchObject({
      target: '[redacted]',
      url: 'https://x.test/?pw=[redacted]',
      message: 'type "[redacted]" into the password field',
      error: 'field rejected [redacted]',
    });
  });

  it('keeps running when the sink fails, and remembers the first failure', async () => {
    const log = new AgentLog({
      sink: () => {
        throw new Error('disk full');
      },
    });
    log.info('one');
    log.info('two');
    await log.flush();
    expect(log.entries).toHaveLength(2);
    expect((log.sinkError as Error).message).toBe('disk full');
  });
});

describe('formatLogLine', () => {
  const base: AgentLogEntry = {
    time: '2025-01-02T12:00:01.123Z',
    seq: 7,
    level: 'info',
    outcome: 'info',
    message: '',
  };

  it('renders a passed step with its strategy and timing', () => {
    expect(
      formatLogLine({
        ...base,
        step: 3,
        action: 'click',
        target: 'Sign in',
        strategy: 'role+name',
        candidates: 1,
        outcome: 'passed',
        durationMs: 84.4,
        message: 'clicked the button "Sign in"',
      }),
    ).toBe('12:00:01.123 step 3 click "Sign in" [role+name, 1 match] passed 84 ms');
  });

  it('renders a started step with its text and a failed step with its error', () => {
    expect(
      formatLogLine({
        ...base,
        step: 4,
        action: 'assertTitle',
        outcome: 'started',
        message: 'the title is "Home"',
      }),
    ).toBe('12:00:01.123 step 4 assertTitle started: the title is "Home"');
    expect(
      formatLogLine({
        ...base,
        level: 'error',
        step: 4,
        action: 'assertTitle',
        outcome: 'failed',
        durationMs: 5003,
        message: 'the title is "Home"',
        error: 'expected the title to be "Home" but it was "Login"',
      }),
    ).toBe(
      '12:00:01.123 step 4 assertTitle failed 5003 ms: expected the title to be "Home" but it was "Login"',
    );
    expect(
      formatLogLine({ ...base, step: 5, action: 'click', outcome: 'skipped', message: 'click Next' }),
    ).toBe('12:00:01.123 step 5 click skipped: click Next');
  });

  it('renders run-level entries as time and message, flagging warnings and errors', () => {
    expect(formatLogLine({ ...base, message: 'parsed 4 steps' })).toBe('12:00:01.123 parsed 4 steps');
    expect(
      formatLogLine({
        ...base,
        level: 'warn',
        message: 'the video could not be recorded',
        error: 'ffmpeg exited with code 1',
      }),
    ).toBe('12:00:01.123 warn: the video could not be recorded (ffmpeg exited with code 1)');
    expect(
      formatLogLine({
        ...base,
        candidates: 3,
        strategy: 'text',
        step: 2,
        action: 'click',
        level: 'warn',
        message: '3 elements matched',
      }),
    ).toBe('12:00:01.123 step 2 click [text, 3 matches]: warn: 3 elements matched');
  });
});
