import { MCP_OFF_MESSAGE } from '../mcp-switch.js';

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

  /** The project's MCP switch is off: the authorization server is not there (404). */
  static mcpOff(): OAuthError {
    return new OAuthError('not_found', MCP_OFF_MESSAGE, 404);
  }

  get body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
