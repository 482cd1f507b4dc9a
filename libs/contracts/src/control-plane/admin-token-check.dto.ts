import { RequiredText } from './control-plane-fields.js';

/** Body of `POST /v1/admin/token-check`: the dashboard's sign-in asks before it keeps a token. */
export class AdminTokenCheckDto {
  @RequiredText(
    { max: 1024 },
    {
      description: 'A candidate PLATFORM_ADMIN_TOKEN; the answer says only whether it is the one.',
      example: 'k3y…',
    },
  )
  token!: string;
}
