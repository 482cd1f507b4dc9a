import { EgressPolicy, type HostResolver, pinnedRequest } from '@suite/egress-policy';
import type { PushConfig } from './push-config.repository.js';

/**
 * Webhooks are public-only: loopback, private, link-local (cloud metadata), CGNAT, multicast and
 * reserved addresses in every form (IPv4-mapped, NAT64, decimal/octal/hex) are refused unless
 * PUSH_ALLOWED_HOSTS lists the host, host:port or a CIDR holding the address.
 */
export function webhookPolicy(allowedHosts: readonly string[]): EgressPolicy {
  return new EgressPolicy({
    mode: 'public-only',
    allowedHosts,
    allowListSetting: 'PUSH_ALLOWED_HOSTS',
    subject: 'webhook',
  });
}

export interface WebhookOptions {
  policy: EgressPolicy;
  resolve: HostResolver;
  timeoutMs: number;
}

/**
 * POSTs one notification (a StreamResponse as JSON) to a config's webhook, with its credentials
 * (`authorization: <scheme> <credentials>`) and token (`x-a2a-notification-token`).
 */
export async function postNotification(
  config: PushConfig,
  event: unknown,
  options: WebhookOptions,
): Promise<void> {
  const headers: Record<string, string> = {};
  if (config.authScheme) {
    headers.authorization = `${config.authScheme} ${config.authCredentials ?? ''}`.trim();
  }
  if (config.token) headers['x-a2a-notification-token'] = config.token;
  await postWebhook(config.url, event, options, headers);
}

/**
 * POSTs `body` as JSON to a webhook: the host is resolved and checked against the policy, then
 * connected to at exactly that address; redirects are not followed. Throws when the webhook does
 * not answer 2xx (EgressBlockedError when refused).
 */
export async function postWebhook(
  target: string,
  body: unknown,
  options: WebhookOptions,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const url = new URL(target);
  const response = await pinnedRequest(url, {
    method: 'POST',
    headers: { ...extraHeaders, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
    policy: options.policy,
    resolve: options.resolve,
  });
  if (response.status >= 300 && response.status < 400) {
    throw new Error(
      `webhook ${url.origin} answered ${response.status} (a redirect${response.location ? ` to ${response.location}` : ''}); redirects are not followed`,
    );
  }
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`webhook ${url.origin} answered ${response.status}`);
  }
}
