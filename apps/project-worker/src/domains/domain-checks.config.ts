import { envFields, z } from '@suite/config';

const DNS_SERVERS =
  /^\s*(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])(?::\d{1,5})?(?:\s*,\s*(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])(?::\d{1,5})?)*\s*$/i;

/** Custom-domain checks (domains/): read at boot by the project worker, which runs them. */
export const domainChecksEnv = z.object({
  /**
   * DNS servers (`ip` or `ip:port`, comma-separated) that custom-domain TXT records are looked
   * up with; unset: the system's. A port other than 53 works (the lookup does not go through
   * glibc), which is how tests point it at a local server.
   */
  DOMAIN_DNS_SERVERS: z
    .string()
    .regex(DNS_SERVERS, 'must be comma-separated IP addresses, each with an optional :port')
    .optional(),
  /** How often every custom domain's TXT record is checked again, by one worker of the deployment (0: never). */
  DOMAIN_RECHECK_INTERVAL_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be >= 0')
    .default(3_600_000),
  /**
   * Development only (the host's value): while it is on, re-checks never take a domain back, since
   * the control plane may have marked it verified without a DNS record.
   */
  DOMAIN_VERIFIED_BY_ADMIN: envFields.bool(false),
});
export type DomainChecksConfig = z.infer<typeof domainChecksEnv>;
