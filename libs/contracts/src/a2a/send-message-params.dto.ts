import { Allow, IsArray, IsIn, IsString, ValidateIf } from 'class-validator';
import {
  A2aBoolean,
  A2aInt,
  A2aJsonObject,
  A2aNested,
  A2aNestedList,
  A2aRequiredString,
  A2aString,
  absolute,
  INT32_MAX,
  KeepsNull,
} from './a2a-fields.js';
import { AuthenticationInfoDto } from './push-config-params.dto.js';

const PART_KINDS = ['text', 'raw', 'url', 'data'] as const;

/** A Part sends a value of exactly one kind; `null` counts as sent. */
const oneKind = (part: Record<string, unknown>): string | undefined =>
  PART_KINDS.filter((kind) => part[kind] !== undefined).length === 1
    ? undefined
    : 'must have exactly one of text, raw, url, data';

/** A field that, when sent (even as null), must hold a string. */
function SentString(message: string): PropertyDecorator {
  return (target, key) => {
    KeepsNull()(target, key);
    ValidateIf((_object: object, value: unknown) => value !== undefined)(target, key);
    IsString({ message })(target, key);
  };
}

/** One Part of a message; `metadata`, `filename` and `mediaType` of the wrong type are left out. */
export class PartDto {
  @SentString('must be a string')
  text?: string;

  @SentString('must be a string')
  url?: string;

  @SentString('must be base64 text')
  raw?: string;

  @KeepsNull()
  @Allow()
  data?: unknown;

  @Allow()
  metadata?: unknown;

  @Allow()
  filename?: unknown;

  @Allow()
  mediaType?: unknown;
}

/** The message of SendMessage, checked in the order it was always read (its parts after messageId). */
export class MessageDto {
  @A2aNestedList(() => PartDto, {
    after: 'messageId',
    itemRule: oneKind,
    message: 'params.message.parts must be a non-empty array',
  })
  parts!: PartDto[];

  @A2aString()
  @IsIn(
    ['ROLE_USER', 'ROLE_UNSPECIFIED', 'user'],
    absolute('params.message.role must be ROLE_USER: messages to this agent come from users'),
  )
  role?: string;

  @A2aRequiredString()
  messageId!: string;

  @A2aString()
  contextId?: string;

  @A2aString()
  taskId?: string;

  @A2aJsonObject()
  metadata?: Record<string, unknown>;
}

/** A push notification config sent with a message, in the order it was always read. */
export class InlinePushConfigDto {
  @A2aString()
  token?: string;

  @A2aNested(() => AuthenticationInfoDto)
  authentication?: AuthenticationInfoDto;

  @A2aString()
  id?: string;

  @A2aRequiredString()
  url!: string;
}

/** SendMessage's configuration. */
export class SendConfigurationDto {
  @A2aInt(0, INT32_MAX)
  historyLength?: number;

  @A2aBoolean()
  returnImmediately?: boolean;

  /** `null` is not a list of media types. */
  @KeepsNull()
  @ValidateIf((_object: object, value: unknown) => value !== undefined)
  @IsArray(absolute('params.configuration.acceptedOutputModes must be an array of media types'))
  acceptedOutputModes?: unknown[];

  @A2aNested(() => InlinePushConfigDto)
  taskPushNotificationConfig?: InlinePushConfigDto;
}

/**
 * Params of SendMessage and SendStreamingMessage. `metadata` is the service's to check: it is
 * read only for a new task, after the webhook was checked.
 */
export class SendMessageParamsDto {
  @A2aNested(() => MessageDto, { required: true })
  message!: MessageDto;

  @A2aNested(() => SendConfigurationDto)
  configuration?: SendConfigurationDto;

  @Allow()
  metadata?: unknown;
}
