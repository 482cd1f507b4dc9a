import { ValidateBy } from 'class-validator';
import { A2aBoolean, A2aInt, A2aRequiredString, A2aString, INT32_MAX } from './a2a-fields.js';

/** Params of CancelTask and SubscribeToTask: the task by its id. */
export class TaskIdParamsDto {
  @A2aRequiredString()
  id!: string;
}

/** Params of GetTask. */
export class GetTaskParamsDto {
  @A2aRequiredString()
  id!: string;

  @A2aInt(0, INT32_MAX)
  historyLength?: number;
}

/** Params of ListTasks; the server's defaults apply to what is left out. */
export class ListTasksParamsDto {
  @A2aInt(1, 100)
  pageSize?: number;

  @A2aString()
  contextId?: string;

  /** A TaskState name; whether it is one is the service's check (after the context's lookup). */
  @A2aString()
  status?: string;

  @A2aString()
  pageToken?: string;

  @A2aInt(0, INT32_MAX)
  historyLength?: number;

  @A2aBoolean()
  includeArtifacts?: boolean;

  @A2aString()
  @ValidateBy({
    name: 'isDateTimeText',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !Number.isNaN(Date.parse(value)),
      defaultMessage: () => 'must be an RFC 3339 date-time',
    },
  })
  statusTimestampAfter?: string;
}
