import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from '@suite/errors';
import { readA2aParams, readStagedParams, readTaskScopedParams, toCamelCase } from './a2a-params.validate.js';
import {
  CreatePushConfigParamsDto,
  ListPushConfigsParamsDto,
  PushConfigRefParamsDto,
} from './push-config-params.dto.js';
import { SendMessageParamsDto } from './send-message-params.dto.js';
import { GetTaskParamsDto, ListTasksParamsDto, TaskIdParamsDto } from './task-params.dto.js';

/** The -32602 message `read` throws. */
function problem(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(A2aError);
    expect((error as A2aError).code).toBe(A2aErrorCode.InvalidParams);
    return (error as A2aError).message;
  }
  throw new Error('no problem was reported');
}

describe('A2A params DTOs', () => {
  it('accepts proto snake_case names but leaves keys inside metadata and Part.data as sent', () => {
    expect(
      toCamelCase({
        message: {
          message_id: 'm',
          context_id: 'c',
          metadata: { caller_ref: { keep_me: 1 } },
          parts: [{ data: { initial_url: 'http://x/' }, media_type: 'application/json' }],
        },
        configuration: { return_immediately: true, history_length: 2 },
      }),
    ).toEqual({
      message: {
        messageId: 'm',
        contextId: 'c',
        metadata: { caller_ref: { keep_me: 1 } },
        parts: [{ data: { initial_url: 'http://x/' }, mediaType: 'application/json' }],
      },
      configuration: { returnImmediately: true, historyLength: 2 },
    });
  });

  it('reads a task id, with absent params as {} and anything else not an object refused', () => {
    expect(readA2aParams(TaskIdParamsDto, { id: 't' })).toEqual({ id: 't' });
    expect(problem(() => readA2aParams(TaskIdParamsDto, undefined))).toBe('params.id is required');
    expect(problem(() => readA2aParams(TaskIdParamsDto, { id: '' }))).toBe('params.id is required');
    expect(problem(() => readA2aParams(TaskIdParamsDto, { id: null }))).toBe('params.id is required');
    expect(problem(() => readA2aParams(TaskIdParamsDto, { id: 5 }))).toBe('params.id must be a string');
    expect(problem(() => readA2aParams(TaskIdParamsDto, ['x']))).toBe('params must be an object');
  });

  it('reports the first problem in field order, and reads an int32 sent as a string', () => {
    expect(problem(() => readA2aParams(GetTaskParamsDto, { history_length: -1 }))).toBe(
      'params.id is required',
    );
    expect(problem(() => readA2aParams(GetTaskParamsDto, { id: 't', history_length: -1 }))).toBe(
      'params.historyLength must be an integer from 0 to 2147483647',
    );
    expect(readA2aParams(GetTaskParamsDto, { id: 't', history_length: '3' })).toEqual({
      id: 't',
      historyLength: 3,
    });
  });

  it('checks the ListTasks filters in the order they were always read', () => {
    expect(problem(() => readA2aParams(ListTasksParamsDto, { pageSize: 0, status: 5 }))).toBe(
      'params.pageSize must be an integer from 1 to 100',
    );
    expect(problem(() => readA2aParams(ListTasksParamsDto, { include_artifacts: 'yes' }))).toBe(
      'params.includeArtifacts must be true or false',
    );
    expect(problem(() => readA2aParams(ListTasksParamsDto, { statusTimestampAfter: 'soon' }))).toBe(
      'params.statusTimestampAfter must be an RFC 3339 date-time',
    );
    expect(readA2aParams(ListTasksParamsDto, { page_size: '5', status: 'TASK_STATE_WORKING' })).toEqual({
      pageSize: 5,
      status: 'TASK_STATE_WORKING',
    });
  });

  it('reports a problem with taskId at once and the others only once the task was found', () => {
    expect(problem(() => readTaskScopedParams(PushConfigRefParamsDto, { id: 5 }))).toBe(
      'params.taskId is required',
    );
    const scoped = readTaskScopedParams(PushConfigRefParamsDto, { task_id: 't' });
    expect(scoped.taskId).toBe('t');
    expect(problem(() => scoped.rest())).toBe('params.id is required');
    const listed = readTaskScopedParams(ListPushConfigsParamsDto, { taskId: 't', page_size: '7' });
    expect(listed.rest()).toEqual({ taskId: 't', pageSize: 7 });
  });

  it('checks a push config and its authentication with their paths', () => {
    const create = (params: object) => readTaskScopedParams(CreatePushConfigParamsDto, params);
    expect(problem(() => create({ url: 5 }))).toBe('params.taskId is required');
    expect(problem(() => create({ taskId: 't', url: 'u', authentication: 'x' }).rest())).toBe(
      'params.authentication must be an object',
    );
    expect(problem(() => create({ taskId: 't', url: 'u', authentication: {} }).rest())).toBe(
      'params.authentication.scheme is required',
    );
    expect(problem(() => create({ taskId: 't', url: 'u', authentication: { scheme: '1x' } }).rest())).toBe(
      'authentication.scheme must be a token such as Bearer',
    );
    expect(
      problem(() =>
        create({ taskId: 't', url: 'u', authentication: { scheme: 'Bearer', credentials: 'a\nb' } }).rest(),
      ),
    ).toBe('authentication.credentials must not contain line breaks');
    expect(problem(() => create({ taskId: 't', id: 3, url: 5 }).rest())).toBe('params.id must be a string');
    expect(
      create({
        task_id: 't',
        url: 'https://h/',
        authentication: { scheme: 'Bearer', credentials: 'c' },
      }).rest(),
    ).toEqual({ taskId: 't', url: 'https://h/', authentication: { scheme: 'Bearer', credentials: 'c' } });
  });

  describe('SendMessage', () => {
    const send = (params: unknown) => readStagedParams(SendMessageParamsDto, params, ['message']);
    const fails = (params: unknown) => problem(() => send(params).rest());
    const text = [{ text: 'Open the page' }];

    it('reports the message problems in the order they were always read', () => {
      expect(fails({})).toBe('params.message is required');
      expect(fails({ message: 'x' })).toBe('params.message must be an object');
      expect(fails({ message: { messageId: 'm', parts: [] } })).toBe(
        'params.message.parts must be a non-empty array',
      );
      // The parts' array first, then the role and messageId, then each part.
      expect(fails({ message: { role: 'ROLE_AGENT', parts: [{ text: 5 }] } })).toBe(
        'params.message.role must be ROLE_USER: messages to this agent come from users',
      );
      expect(fails({ message: { parts: [{ text: 5 }] } })).toBe('params.message.messageId is required');
      expect(fails({ message: { messageId: 'm', parts: [{ text: 'a', url: 'https://x' }] } })).toBe(
        'params.message.parts[0] must have exactly one of text, raw, url, data',
      );
      expect(fails({ message: { messageId: 'm', parts: [{ text: 5 }], metadata: [1] } })).toBe(
        'params.message.parts[0].text must be a string',
      );
      expect(fails({ message: { messageId: 'm', parts: [{ text: null }] } })).toBe(
        'params.message.parts[0].text must be a string',
      );
      expect(fails({ message: { messageId: 'm', parts: [text[0], 3] } })).toBe(
        'params.message.parts[1] must be an object',
      );
      expect(fails({ message: { messageId: 'm', parts: [{ raw: 1 }] } })).toBe(
        'params.message.parts[0].raw must be base64 text',
      );
      expect(fails({ message: { messageId: 'm', parts: text, metadata: [1] } })).toBe(
        'params.message.metadata must be an object',
      );
    });

    it('reports a configuration problem only from rest(), after a good message', () => {
      const staged = send({
        message: { message_id: 'm', parts: text },
        configuration: { history_length: -1 },
      });
      expect(staged.first.message.messageId).toBe('m');
      expect(problem(() => staged.rest())).toBe(
        'params.configuration.historyLength must be an integer from 0 to 2147483647',
      );
      const message = { messageId: 'm', parts: text };
      expect(fails({ message, configuration: { acceptedOutputModes: null } })).toBe(
        'params.configuration.acceptedOutputModes must be an array of media types',
      );
      expect(fails({ message, configuration: { returnImmediately: 'yes' } })).toBe(
        'params.configuration.returnImmediately must be true or false',
      );
      // An inline push config is read token, authentication, id, url.
      expect(
        fails({
          message,
          configuration: { taskPushNotificationConfig: { authentication: {}, id: 5 } },
        }),
      ).toBe('params.configuration.taskPushNotificationConfig.authentication.scheme is required');
      expect(fails({ message, configuration: { taskPushNotificationConfig: { id: 'x' } } })).toBe(
        'params.configuration.taskPushNotificationConfig.url is required',
      );
    });

    it('leaves the request metadata to the service', () => {
      expect(send({ message: { messageId: 'm', parts: text }, metadata: [1] }).rest().metadata).toEqual([1]);
    });
  });
});
