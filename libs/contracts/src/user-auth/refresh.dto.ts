import { BooleanField, CodeField } from './user-auth-fields.js';

/** Body of `POST /api/user/auth/refresh`: rotate the pair, or sign out with `revoke: true`. */
export class RefreshDto {
  @CodeField('The refresh token of the current pair (it is used up).', 'k1Vq2x8Yp0rT4mN7sB3dH6wJ9aL5eC1u')
  refreshToken!: string;

  @BooleanField('true signs out: the session ends and no new pair is issued.', false)
  revoke?: boolean;
}
