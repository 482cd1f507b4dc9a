import { z } from '@suite/config';
import { AuthError, AuthErrorCode } from '@suite/errors';

// Request shapes of /api/user. A malformed request is 400 invalid-request whose message names the
// field, e.g. "password: is required". Unknown fields are ignored.

const required = (kind: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${kind}`;

const email = z
  .string({ error: required('a string') })
  .trim()
  .max(254, 'must be at most 254 characters')
  .toLowerCase()
  .pipe(z.email({ error: 'must be a valid email address' }));

/** Password as typed at sign-in: checked against the hash, never against the policy. */
const anyPassword = z
  .string({ error: required('a string') })
  .min(1, 'must not be empty')
  .max(1024, 'is too long');

/** New passwords are checked by passwordProblem() after parsing (it needs the normalised text). */
const newPassword = anyPassword;

const code = z
  .string({ error: required('a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(512, 'is too long');

const name = z
  .string({ error: required('a string') })
  .trim()
  .max(200, 'must be at most 200 characters')
  // eslint-disable-next-line no-control-regex
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'must not contain control characters');

export const registerBody = z.object({ email, password: newPassword, name: name.optional() });
export const loginBody = z.object({ email, password: anyPassword });
export const refreshBody = z.object({
  refreshToken: code,
  revoke: z.boolean({ error: required('true or false') }).optional(),
});
export const magicLinkQuery = z.object({
  email,
  redirect_uri: z.string({ error: required('a string') }).optional(),
});
export const codeQuery = z.object({ code });
export const forgotPasswordBody = z.object({ email });
export const forgotPasswordCallbackBody = z.object({ code, password: newPassword });
export const updateMeBody = z.object({
  name: name.nullable().optional(),
  email: email.optional(),
  currentPassword: anyPassword.optional(),
});
export const codeBody = z.object({ code });

/** `value` parsed by `schema`, or 400 invalid-request naming every bad field. */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' = 'body',
): z.infer<S> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AuthError(
      AuthErrorCode.InvalidRequest,
      where === 'body' ? 'The body must be a JSON object.' : 'The query is missing.',
    );
  }
  if (where === 'query') {
    // A repeated query parameter arrives as an array: ambiguous, so refused.
    for (const [key, item] of Object.entries(value)) {
      if (Array.isArray(item))
        throw new AuthError(AuthErrorCode.InvalidRequest, `${key}: must be given once`);
    }
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues
    .map((issue) => `${issue.path.map(String).join('.') || where}: ${issue.message}`)
    .join('; ');
  throw new AuthError(AuthErrorCode.InvalidRequest, message);
}

/** A field-named invalid-request, for checks that happen after parsing (password policy). */
export function invalidField(field: string, problem: string): AuthError {
  return new AuthError(AuthErrorCode.InvalidRequest, `${field}: ${problem}`);
}
