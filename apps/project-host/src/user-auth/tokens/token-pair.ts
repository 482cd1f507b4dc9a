/** What sign-in, sign-up and refresh answer. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** Where a session was opened from (kept on the session row, for the user's own review). */
export interface ClientMeta {
  ip: string;
  userAgent: string | undefined;
}
