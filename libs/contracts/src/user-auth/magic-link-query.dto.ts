import { EmailField, TextField } from './user-auth-fields.js';

/** Query of `GET /api/user/auth/magic-link`. */
export class MagicLinkQueryDto {
  @EmailField('required', 'Where the sign-in link is mailed.')
  email!: string;

  @TextField(
    'Where the link lands after sign-in: one of the project\u2019s hosts or an allowed app scheme.',
    'https://shop.example.com/welcome',
  )
  redirect_uri?: string;
}
