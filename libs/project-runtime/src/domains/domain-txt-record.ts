/** The DNS name under which a custom domain's owner publishes its verification token. */
export const DOMAIN_TXT_PREFIX = '_platform-verification';

/**
 * The TXT record that proves control of a custom domain: the control plane shows it (project
 * host), the project worker looks it up.
 */
export function domainTxtRecord(domain: string, token: string): { name: string; value: string } {
  return { name: `${DOMAIN_TXT_PREFIX}.${domain}`, value: `platform-verification=${token}` };
}
