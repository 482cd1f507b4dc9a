import { CodeField, PasswordField } from './user-auth-fields.js';

/** Body of `POST /api/user/auth/forgot-password/callback`. */
export class ResetPasswordDto {
  @CodeField('The code from the reset mail.', 'b7Yp3QkX9sLm2VtR')
  code!: string;

  @PasswordField('required', 'The new password; it must meet the project\u2019s password policy.')
  password!: string;
}
