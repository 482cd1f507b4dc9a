/** Lifetimes the spec fixes (access 15 minutes, refresh 30 days, email-change code 15 minutes). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;
export const EMAIL_CHANGE_CODE_TTL_MS = 15 * 60_000;
/** The spec leaves these open: short enough that a leaked mail is soon useless. */
export const MAGIC_LINK_CODE_TTL_MS = 15 * 60_000;
export const FORGOT_PASSWORD_CODE_TTL_MS = 30 * 60_000;
/** A project's signing key is replaced by a new generation after this long. */
export const SIGNING_KEY_ROTATE_AFTER_MS = 90 * 24 * 3600_000;
/** The only signature algorithm access tokens are made with (verified through passport-jwt). */
export const ACCESS_TOKEN_ALG = 'ES256';
/**
 * The algorithm of the keys before ES256 (Ed25519): such a key is rolled over at its project's next
 * sign-in, and the tokens it signed stay valid until they expire (jose verifies them; jsonwebtoken,
 * under passport-jwt, has no EdDSA).
 */
export const LEGACY_ACCESS_TOKEN_ALG = 'EdDSA';
/** JOSE header `typ` and claim `typ` of access tokens. */
export const ACCESS_TOKEN_TYP = 'project_access';
/**
 * Interactive transactions of end-user auth: waiting for a pooled connection or a row lock (racing
 * refreshes queue on one) must not fail a request after Prisma's 2 s default.
 */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;
