import { EmailField, PasswordField } from './user-auth-fields.js';

/** Body of `POST /api/user/auth/login`. */
export class LoginDto {
  @EmailField()
  email!: string;

  @PasswordField()
  password!: string;
}
