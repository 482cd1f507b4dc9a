import { EmailField, NameField, PasswordField } from './user-auth-fields.js';

/** Body of `PUT /api/user/me`: fields left out stay as they are. */
export class UpdateMeDto {
  @NameField('nullable', 'Display name; null or an empty string clears it.')
  name?: string | null;

  @EmailField(
    'omittable',
    'A new address: a password account changes it at once (with currentPassword); an account without a password gets a code mailed there and the change waits for it (202).',
  )
  email?: string;

  @PasswordField('omittable', 'The current password; needed to change the email of a password account.')
  currentPassword?: string;
}
