import { describe, expect, it, jest } from '@jest/globals';
import { type ArgumentsHost, Logger, NotFoundException } from '@nestjs/common';
import { createExceptionFilter, type ErrorModel, frameworkFailureOf } from './exception-filter.factory.js';

class Outage extends Error {}
class Known extends Error {}

const model: ErrorModel = {
  fromDependency: (error) =>
    error instanceof Error && error.message === 'ECONNREFUSED' ? new Outage() : undefined,
  isUnexpected: (error) => !(error instanceof Known || error instanceof Outage),
  newErrorId: () => 'error-id-1',
};

function exchange(url: string, sent = false) {
  const answers: { status: number; headers: unknown; body: unknown }[] = [];
  let status = 0;
  let headers: unknown;
  const reply = {
    sent,
    raw: { headersSent: sent },
    status(code: number) {
      status = code;
      return reply;
    },
    headers(value: unknown) {
      headers = value;
      return reply;
    },
    send(body: unknown) {
      answers.push({ status, headers, body });
      return reply;
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ method: 'POST', url }) }),
  } as unknown as ArgumentsHost;
  return { host, answers };
}

const filter = createExceptionFilter({
  model,
  framework: { 'not-found': () => new Known('no route') },
  reply: (error, request, errorId) => ({
    status: error instanceof Known ? 404 : error instanceof Outage ? 503 : 500,
    headers: { 'x-url': request.url },
    body: { kind: (error as Error).constructor.name, message: (error as Error).message, errorId },
  }),
});

describe('createExceptionFilter', () => {
  it('answers a framework refusal in the app\u2019s words', () => {
    const { host, answers } = exchange('/nope');
    filter.catch(new NotFoundException(), host);
    expect(answers).toEqual([
      { status: 404, headers: { 'x-url': '/nope' }, body: { kind: 'Known', message: 'no route' } },
    ]);
  });

  it('reads Fastify\u2019s refusal from the cause Nest\u2019s adapter gives only in the options, by shape', () => {
    // As Nest's Fastify adapter wraps a Content-Type that is no media type ("garbage"), possibly
    // with another copy of @nestjs/common's HttpException.
    const wrapped = {
      getStatus: () => 415,
      response: 'Unsupported Media Type',
      options: { cause: { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 } },
    };
    expect(frameworkFailureOf(wrapped)).toBe('unsupported-media-type');
    expect(frameworkFailureOf({ getStatus: () => 413 })).toBe('body-too-large');
    expect(frameworkFailureOf(new Error('boom'))).toBeUndefined();
  });

  it('answers a lost dependency with the model\u2019s error, unlogged', () => {
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const { host, answers } = exchange('/v1/jobs');
      filter.catch(new Error('ECONNREFUSED'), host);
      expect(answers[0]).toMatchObject({ status: 503, body: { kind: 'Outage' } });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('logs an unexpected error with its id and the URL without query values, and returns the id', () => {
    const logged: unknown[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((entry: unknown) => {
      logged.push(entry);
    });
    try {
      const { host, answers } = exchange('/api/user/auth/magic-link/callback?code=SECRET-CODE');
      filter.catch(new Error('boom'), host);
      expect(answers[0]).toMatchObject({ status: 500, body: { message: 'boom', errorId: 'error-id-1' } });
      expect(logged[0]).toMatchObject({
        errorId: 'error-id-1',
        method: 'POST',
        url: '/api/user/auth/magic-link/callback?code=[redacted]',
      });
      expect(JSON.stringify(logged)).not.toContain('SECRET-CODE');
    } finally {
      spy.mockRestore();
    }
  });

  it('sends nothing once the answer has started (a failing stream)', () => {
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const { host, answers } = exchange('/v1/jobs/1/events', true);
      filter.catch(new Error('stream broke'), host);
      expect(answers).toEqual([]);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});
