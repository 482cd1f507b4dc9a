import { EmailField } from './user-auth-fields.js';

/** Body of `POST /api/user/auth/forgot-password`. */
export class ForgotPasswordDto {
  @EmailField('required', 'Where the reset code is mailed (the answer is the same for unknown addresses).')
  email!: string;
}
