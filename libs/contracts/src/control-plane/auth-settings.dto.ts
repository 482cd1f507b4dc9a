import {
  OmittableBoolean,
  OptionalSchemeList,
  OptionalText,
  RequiredBoolean,
  RequiredOneOf,
} from './control-plane-fields.js';

export const IDP_MODES = ['platform', 'custom', 'off'] as const;
export const MAX_REDIRECT_SCHEMES = 20;

/** Body of `PUT /v1/projects/{projectId}/auth`. */
export class AuthSettingsDto {
  @RequiredBoolean({ description: 'Whether end-user auth is on for the project.', example: true })
  enabled!: boolean;

  @RequiredBoolean({
    description: 'Email and password sign-in (and magic links, password reset).',
    example: true,
  })
  emailPassword!: boolean;

  @RequiredBoolean({ description: 'Whether new accounts may be created.', example: true })
  allowSignups!: boolean;

  @RequiredOneOf(IDP_MODES, {
    description:
      'Identity-provider sign-in: the platform\u2019s provider, the project\u2019s own client, or off.',
    example: 'platform',
  })
  idpMode!: (typeof IDP_MODES)[number];

  @OptionalText(
    { max: 512, trim: true },
    {
      description: 'Client id of a custom provider; left out keeps it, null clears it.',
      example: 'acme-web',
    },
  )
  idpClientId?: string | null;

  @OptionalText(
    { max: 1024 },
    {
      description: 'Client secret of a custom provider; never shown back; left out keeps it, null clears it.',
      example: 's3cr3t-value',
    },
  )
  idpClientSecret?: string | null;

  @OptionalSchemeList(
    MAX_REDIRECT_SCHEMES,
    {
      description:
        'App schemes allowed for redirect_uri (e.g. `acme`); null or left out: any but the browser hand-off ones.',
      example: ['acme'],
    },
    'must be a list of app schemes, or null',
  )
  redirectSchemes?: unknown[] | null;

  @OmittableBoolean({
    description:
      'Whether the project serves MCP: `/mcp` and its OAuth authorization server for MCP clients (metadata, registration, consent page, token endpoint). Off: those answer 404 and issued MCP tokens stop working. Left out keeps the saved value (on for a new project).',
    example: true,
  })
  mcpEnabled?: boolean;
}
