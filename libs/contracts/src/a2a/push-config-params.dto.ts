import { Matches, ValidateBy } from 'class-validator';
import { A2aInt, A2aNested, A2aRequiredString, A2aString, absolute } from './a2a-fields.js';

/** AuthenticationInfo of a push notification config: the scheme and credentials a webhook gets. */
export class AuthenticationInfoDto {
  @A2aRequiredString()
  @Matches(/^[A-Za-z][\w.+-]*$/, absolute('authentication.scheme must be a token such as Bearer'))
  scheme!: string;

  @A2aString()
  @ValidateBy(
    {
      name: 'hasNoLineBreaks',
      validator: { validate: (value: unknown) => typeof value !== 'string' || !/[\r\n]/.test(value) },
    },
    absolute('authentication.credentials must not contain line breaks'),
  )
  credentials?: string;
}

/** A push notification config as CreateTaskPushNotificationConfig sends it, in reading order. */
export class PushConfigFieldsDto {
  @A2aString()
  id?: string;

  @A2aRequiredString()
  url!: string;

  @A2aString()
  token?: string;

  @A2aNested(() => AuthenticationInfoDto)
  authentication?: AuthenticationInfoDto;
}

/** Params of CreateTaskPushNotificationConfig: the task's id (read first), then the config. */
export class CreatePushConfigParamsDto extends PushConfigFieldsDto {
  @A2aRequiredString()
  taskId!: string;
}

/** Params of GetTaskPushNotificationConfig and DeleteTaskPushNotificationConfig. */
export class PushConfigRefParamsDto {
  @A2aRequiredString()
  taskId!: string;

  @A2aRequiredString()
  id!: string;
}

/** Params of ListTaskPushNotificationConfigs. */
export class ListPushConfigsParamsDto {
  @A2aRequiredString()
  taskId!: string;

  @A2aInt(0, 100)
  pageSize?: number;

  @A2aString()
  pageToken?: string;
}
