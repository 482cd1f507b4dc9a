import { CodeField } from './user-auth-fields.js';

/** A mailed code: the magic-link callback's query, the email-change callback's body. */
export class CodeDto {
  @CodeField('The code from the mail.', 'b7Yp3QkX9sLm2VtR')
  code!: string;
}
