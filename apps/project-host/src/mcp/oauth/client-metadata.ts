import {
  OAuthClientMetadataSchema,
  type OAuthClientMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAuthError } from './oauth-error.js';
import { redirectUriProblem } from './redirect-uris.js';

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';
export const AUTH_METHODS: readonly ClientAuthMethod[] = [
  'none',
  'client_secret_post',
  'client_secret_basic',
];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_REDIRECT_URIS = 10;

/**
 * Client metadata as this server takes it, from a registration (RFC 7591) or a client ID metadata
 * document alike: the MCP SDK's own schema, then our rules (1 to 10 redirect URIs that
 * `redirectUriProblem` accepts, the code flow only). Returns it normalized (the name cut to 200
 * characters, grant and response types filled in); `defaultAuthMethod` is what an absent
 * `token_endpoint_auth_method` means. Throws `OAuthError` (`invalid_client_metadata`,
 * `invalid_redirect_uri`).
 */
export function checkClientMetadata(
  body: unknown,
  defaultAuthMethod: ClientAuthMethod,
): OAuthClientMetadata & { token_endpoint_auth_method: ClientAuthMethod } {
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OAuthError(
      'invalid_client_metadata',
      `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid client metadata'}`,
    );
  }
  const metadata = parsed.data;
  if (metadata.redirect_uris.length === 0 || metadata.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError('invalid_redirect_uri', `redirect_uris must hold 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `${uri} ${problem}`);
  }
  const authMethod = (metadata.token_endpoint_auth_method ?? defaultAuthMethod) as ClientAuthMethod;
  if (!AUTH_METHODS.includes(authMethod)) {
    throw new OAuthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`,
    );
  }
  const grants = metadata.grant_types ?? ['authorization_code'];
  if (grants.some((grant) => !GRANT_TYPES.includes(grant))) {
    throw new OAuthError('invalid_client_metadata', `grant_types may hold ${GRANT_TYPES.join(' and ')} only`);
  }
  if ((metadata.response_types ?? ['code']).some((type) => type !== 'code')) {
    throw new OAuthError('invalid_client_metadata', 'response_types may hold code only');
  }
  return {
    ...metadata,
    client_name: metadata.client_name?.slice(0, 200),
    token_endpoint_auth_method: authMethod,
    grant_types: grants,
    response_types: ['code'],
  };
}
