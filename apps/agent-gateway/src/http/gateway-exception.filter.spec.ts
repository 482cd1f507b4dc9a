import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { A2aError, A2aErrorCode, RunnerError, RunnerErrorCode } from '@suite/errors';
import type { FastifyRequest } from 'fastify';
import { gatewayExceptionFilter } from './gateway-exception.filter.js';
import { noteJsonRpcId } from './json-rpc-id.js';

// What reaches the wire when a gateway handler throws: each transport in its own error shape, and a
// lost Postgres or Redis (a driver's refused connection) as a 503 on every one of them.

type Answer = { status: number; headers: Record<string, string>; body: unknown };

function exchange(url: string) {
  const answers: Answer[] = [];
  const answer: Answer = { status: 0, headers: {}, body: undefined };
  const reply = {
    sent: false,
    raw: { headersSent: false },
    status(code: number) {
      answer.status = code;
      return reply;
    },
    headers(value: Record<string, string>) {
      answer.headers = value;
      return reply;
    },
    send(body: unknown) {
      answers.push({ ...answer, body });
      return reply;
    },
  };
  const request = { method: 'POST', url } as FastifyRequest;
  const host = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }),
  } as unknown as ArgumentsHost;
  return { host, request, answers };
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const filter = gatewayExceptionFilter();

describe('the gateway exception filter', () => {
  it('answers a lost dependency on /a2a with a JSON-RPC service_unavailable error, 503 and the request id', () => {
    const { host, request, answers } = exchange('/a2a');
    noteJsonRpcId(request, 7);
    filter.catch(refused(), host);
    expect(answers).toEqual([
      {
        status: 503,
        headers: { 'Retry-After': '5' },
        body: {
          jsonrpc: '2.0',
          id: 7,
          error: {
            code: -32000,
            message: expect.stringMatching(/unavailable/),
            data: [expect.objectContaining({ reason: 'SERVICE_UNAVAILABLE' })],
          },
        },
      },
    ]);
  });

  it('answers a lost dependency on /a2a/rest with a google.rpc.Status UNAVAILABLE body, 503', () => {
    const { host, answers } = exchange('/a2a/rest/tasks/abc:cancel?x=1');
    filter.catch(refused(), host);
    expect(answers).toEqual([
      {
        status: 503,
        headers: { 'Retry-After': '5', 'content-type': 'application/json' },
        body: {
          error: {
            code: 503,
            status: 'UNAVAILABLE',
            message: expect.stringMatching(/unavailable/),
            details: [expect.objectContaining({ reason: 'SERVICE_UNAVAILABLE' })],
          },
        },
      },
    ]);
  });

  it('answers a lost dependency on /mcp with a JSON-RPC error, 503 and id null', () => {
    const { host, answers } = exchange('/mcp');
    filter.catch(refused(), host);
    expect(answers).toEqual([
      {
        status: 503,
        headers: { 'Retry-After': '5' },
        body: {
          jsonrpc: '2.0',
          id: null,
          error: expect.objectContaining({
            code: -32000,
            data: [expect.objectContaining({ reason: 'SERVICE_UNAVAILABLE' })],
          }),
        },
      },
    ]);
  });

  it('answers a lost dependency elsewhere as /v1 does', () => {
    const { host, answers } = exchange('/health/ready');
    filter.catch(refused(), host);
    expect(answers).toEqual([
      {
        status: 503,
        headers: { 'Retry-After': '5' },
        body: { detail: expect.stringMatching(/unavailable/), code: 'service_unavailable' },
      },
    ]);
  });

  it('keeps JSON-RPC over HTTP on /a2a: a protocol error is a 200 with the noted id', () => {
    const { host, request, answers } = exchange('/a2a/');
    noteJsonRpcId(request, 'req-1');
    filter.catch(new A2aError(A2aErrorCode.TaskNotFound, 'No such task'), host);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.status).toBe(200);
    expect(answers[0]!.body).toMatchObject({ id: 'req-1', error: { code: A2aErrorCode.TaskNotFound } });
  });

  it('asks for credentials with a 401 and WWW-Authenticate on /mcp', () => {
    const { host, answers } = exchange('/mcp');
    filter.catch(new RunnerError(RunnerErrorCode.Unauthorized, 'Missing API key'), host);
    expect(answers[0]).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
    expect(answers[0]!.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });
});
