/**
 * An OAuth error as RFC 6749 §5.2 / RFC 7591 §3.2.2 answer it: `{ error, error_description }` with
 * its status. Thrown by the authorization server's services, written by its controllers.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }

  get body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
