import { EmailField, NameField, PasswordField } from './user-auth-fields.js';

/** Body of `POST /api/user/auth/register`. */
export class RegisterDto {
  @EmailField()
  email!: string;

  @PasswordField('required', 'The new password; it must meet the project\u2019s password policy.')
  password!: string;

  @NameField('omittable', 'Display name.')
  name?: string;
}
