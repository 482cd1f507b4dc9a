import { envFields, loadConfigOrExit, serviceEnv, z } from '@suite/config';
import { NETWORK_MODES, parseAllowList } from '@suite/egress-policy';
import { platformSecretsEnv, projectRuntimeEnv, requireAuthSecretInProduction } from '@suite/project-runtime';

export const projectHostEnv = z
  .object({
    ...serviceEnv,
    PORT: envFields.port(8082),
    /** PLATFORM_ADMIN_TOKEN, AUTH_SECRET, TENANT_ADMIN_DATABASE_URL: read by the project worker too. */
    ...platformSecretsEnv,
    PUBLIC_URL: envFields.httpUrl().default('http://localhost:8082'),
    PROJECT_HOST_DOMAIN: z
      .string()
      .regex(/^[a-z0-9.-]+$/i, 'must be a domain name such as localhost or example.com')
      .default('localhost'),
    IDP_CLIENT_ID: z.string().optional(),
    IDP_CLIENT_SECRET: z.string().optional(),
    IDP_ISSUER_URL: envFields.httpUrl().optional(),
    NODE_ENV: z.string().optional(),

    // End-user auth (/api/user/*) ----------------------------------------------------------------
    /** bcrypt cost of new password hashes; older hashes are upgraded at the next login. */
    BCRYPT_COST: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(10, 'must be between 10 and 14')
      .max(14, 'must be between 10 and 14')
      .default(11),
    /**
     * Opt-in server-side grace for racing tabs (off by default, as the contract wants: a rotated
     * refresh token presented again is 401 identity-not-found and revokes its family). When set,
     * requests presenting a token while it rotates or up to this long after get the same successor
     * pair instead. Trade-off: a thief who replays a stolen token inside the window is served too
     * (and the theft goes unnoticed). The platform client already refreshes once across tabs.
     */
    REFRESH_REUSE_GRACE_MS: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 60000')
      .max(60_000, 'must be between 0 and 60000 (seconds, not minutes)')
      .default(0),
    /**
     * How long a process may answer a Bearer request from what it read of the session and the user
     * (see events/auth-state.cache.ts); changes reach every process at once through Redis pub/sub,
     * so this bounds staleness only should a message be lost. 0 reads the database every time.
     */
    AUTH_STATE_CACHE_MS: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 60000')
      .max(60_000, 'must be between 0 and 60000 (milliseconds)')
      .default(10_000),
    /**
     * Push streams (`GET /api/_platform/push`) one user may hold open, every replica together (per
     * process while Redis is away); a newer one ends the oldest (`event: ended`, too-many-streams).
     */
    PUSH_STREAMS_PER_USER: envFields.positiveInt(5),
    /** How long a push-stream ticket (`POST /api/_platform/push/ticket`) can be used, once, in seconds. */
    PUSH_TICKET_TTL_SECONDS: envFields.positiveInt(30).pipe(z.number().max(300, 'must be ≤ 300')),
    /** Reverse proxies in front of the host: X-Forwarded-For is trusted for this many hops only. */
    TRUSTED_PROXY_HOPS: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 10')
      .max(10, 'must be between 0 and 10')
      .default(0),
    /**
     * Largest body a project's own route (`/api/*`) accepts, whatever its type; larger ones get 413
     * before a byte reaches the sandbox (Content-Length is checked first). Other routes take 64 KB,
     * deployment archives 5 MB.
     */
    PROJECT_API_BODY_KB: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be between 1 and 4096')
      .max(4096, 'must be between 1 and 4096 (the sandbox channel carries at most 8 MB a message)')
      .default(1024),
    /**
     * Largest request head (request line and headers) the host reads, in KB (Node's default is 16).
     * Cookies a sibling host under the same parent domain sets reach every project host; above this
     * the request gets 431. Project hosts belong on a registrable domain of their own (README).
     */
    MAX_HEADER_KB: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(16, 'must be between 16 and 256')
      .max(256, 'must be between 16 and 256')
      .default(64),
    /**
     * Failed admin-token attempts (control-plane API and POST /v1/admin/token-check) per client
     * address in 15 minutes; past it that address gets 429 with Retry-After, even with the right
     * token, until the window ends. Other addresses are not affected.
     */
    ADMIN_TOKEN_FAILURES_PER_15_MINUTES: envFields.positiveInt(10),
    /** Requests per minute per client IP and project on each of login, register, mail requests, code callbacks, profile changes. */
    AUTH_RATE_LIMIT_IP_PER_MINUTE: envFields.positiveInt(30),
    /** Refreshes per minute per client IP and project. */
    AUTH_RATE_LIMIT_REFRESH_PER_MINUTE: envFields.positiveInt(120),
    /**
     * Attempts per 15 minutes per account (email, user or refresh token): current-password checks,
     * refreshes; logins and sign-ups count per account *and client address*, so attempts from other
     * addresses never use up those of the user's own.
     */
    AUTH_RATE_LIMIT_ACCOUNT_PER_15_MINUTES: envFields.positiveInt(10),
    /**
     * Failed logins per 15 minutes per account from addresses it never signed in from, all of them
     * together; past it those addresses are held off (429) for the rest of the window, while the
     * addresses the account signed in from before still sign in (targeted lockout).
     */
    AUTH_RATE_LIMIT_ACCOUNT_OTHERS_PER_15_MINUTES: envFields.positiveInt(100),
    /** Seconds before another mail of the same kind may go to the same address (0: no cooldown). */
    AUTH_MAIL_COOLDOWN_SECONDS: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be >= 0')
      .default(60),
    /**
     * Auth mails per hour to one address (magic link, forgot password, email change): for each
     * address the account signed in from, and once more for all other requesters together (the
     * cap against mail-bombing), so others never use up the allowance of the user's own address.
     * The cooldown counts the same way.
     */
    AUTH_MAIL_PER_ADDRESS_PER_HOUR: envFields.positiveInt(5),
    // Project code's context (ctx.db, ctx.jobs, ctx.email, ctx.push), its sandboxes and the hourly mail
    // budgets of a project (AUTH_MAIL_PER_PROJECT_PER_HOUR, MAIL_BULK_*): see @suite/project-runtime
    ...projectRuntimeEnv,
    // Custom domains (control-plane/project-settings.service.ts; the project worker checks DNS) --
    /**
     * How long adding a domain or POST …/domains/{domain}/verify waits for the project worker's DNS
     * check before it answers (the check stays queued if it is not done by then); 0 does not wait.
     */
    DOMAIN_CHECK_WAIT_MS: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 60000')
      .max(60_000, 'must be between 0 and 60000 (milliseconds)')
      .default(10_000),
    /**
     * Development only: POST /v1/projects/{id}/domains with `verified: true` marks the domain
     * verified without its DNS check (set it on the project worker too: while it is on, re-checks
     * never take a domain back).
     */
    DOMAIN_VERIFIED_BY_ADMIN: envFields.bool(false),
    // MCP clients named by a client ID metadata document (mcp/oauth/client-metadata-documents.ts) ---
    /**
     * Where the host may fetch those documents from. `public-only` (production): https to public
     * addresses only, as webhooks. `allow-private` (development and tests only): loopback and
     * private addresses and plain http too; link-local (cloud metadata) stays refused.
     */
    MCP_CLIENT_METADATA_NETWORK: z.enum(NETWORK_MODES).default('public-only'),
    /** Hosts, host:port pairs, IPs and CIDRs whose documents are fetched even when private (https still). */
    MCP_CLIENT_METADATA_ALLOWED_HOSTS: envFields.list().superRefine((entries, ctx) => {
      for (const problem of parseAllowList(entries).problems)
        ctx.addIssue({ code: 'custom', message: problem });
    }),
    /** Set by `platform dev`: a local host that, as the spec says, never fires `user.deleted`. */
    PLATFORM_DEV_MODE: envFields.bool(false),
  })
  .superRefine(requireAuthSecretInProduction);
export type ProjectHostConfig = z.infer<typeof projectHostEnv>;

export const loadProjectHostConfig = (env: NodeJS.ProcessEnv = process.env): ProjectHostConfig =>
  loadConfigOrExit('project-host', projectHostEnv, env, {
    sensitive: ['PLATFORM_ADMIN_TOKEN', 'IDP_CLIENT_SECRET', 'AUTH_SECRET', 'TENANT_DATABASE_SERVERS'],
  });
