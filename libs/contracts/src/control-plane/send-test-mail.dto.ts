import { RequiredText, Rule } from './control-plane-fields.js';
import { isMailbox } from './smtp-settings.dto.js';

/** Body of `POST /v1/projects/{projectId}/smtp/test`. */
export class SendTestMailDto {
  @RequiredText(
    { max: 320, trim: true },
    { description: 'Where the test mail goes.', example: 'you@example.com' },
    Rule(
      'mailbox',
      (value) => isMailbox(value) && !/[<>]/.test(String(value)),
      'must be a mail address such as you@example.com',
    ),
  )
  to!: string;
}
