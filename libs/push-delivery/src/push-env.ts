import { envFields } from '@suite/config';
import { dnsServerProblems, parseAllowList } from '@suite/egress-policy';

/** Where webhooks may go, read alike by the gateway (when a config is stored) and the push worker. */
export const webhookEnv = {
  /**
   * Webhooks are public-only; these hosts, host:port pairs, IPs and CIDRs (`hooks.internal`,
   * `10.0.0.7:8080`, `10.1.0.0/16`, `[fd00::1]:443`) are let through even when private.
   */
  PUSH_ALLOWED_HOSTS: envFields.list().superRefine((entries, ctx) => {
    for (const problem of parseAllowList(entries).problems)
      ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** DNS servers (`ip`, `ip:port`) webhook hosts are resolved with; unset: the system resolver. */
  PUSH_DNS_SERVERS: envFields.list().superRefine((servers, ctx) => {
    for (const problem of dnsServerProblems(servers)) ctx.addIssue({ code: 'custom', message: problem });
  }),
};
