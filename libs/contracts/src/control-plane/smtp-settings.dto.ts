import {
  OptionalText,
  RequiredBoolean,
  RequiredInteger,
  RequiredText,
  Rule,
} from './control-plane-fields.js';

const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[?[0-9a-f:.]+\]?$/i;
const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$|^[^\s@<>",;]+@localhost$/i;
const NAMED_ADDRESS = /^([^<>]*)<([^<>]+)>$/;

/** `no-reply@acme.com`, or with a display name: `Acme <no-reply@acme.com>`. */
export function isMailbox(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const named = NAMED_ADDRESS.exec(value);
  return ADDRESS.test(named ? named[2]!.trim() : value);
}

/** Body of `PUT /v1/projects/{projectId}/smtp`. */
export class SmtpSettingsDto {
  @RequiredText(
    { max: 253, trim: true },
    { description: 'SMTP server host name or IP address.', example: 'smtp.example.com' },
    Rule(
      'hostName',
      (value) => typeof value === 'string' && HOST.test(value),
      'must be a host name or an IP address',
    ),
  )
  host!: string;

  @RequiredInteger(1, 65535, { description: 'SMTP port.', example: 587 })
  port!: number;

  @RequiredBoolean({
    description: 'TLS from the start (port 465); false: STARTTLS when offered.',
    example: false,
  })
  secure!: boolean;

  @OptionalText(
    { max: 320 },
    { description: 'SMTP user name; null or left out: no authentication.', example: 'mailer' },
  )
  user?: string | null;

  @OptionalText(
    { max: 1024 },
    {
      description: 'SMTP password; never shown back; left out keeps it, null clears it.',
      example: 'app-password',
    },
  )
  pass?: string | null;

  @RequiredText(
    { max: 320, trim: true },
    { description: 'The From address, optionally with a name.', example: 'Acme <no-reply@acme.com>' },
    Rule('mailbox', isMailbox, 'must be a mail address, optionally with a name: "Acme <no-reply@acme.com>"'),
  )
  from!: string;
}
