import {
  EgressBlockedError,
  type EgressPolicy,
  type HostResolver,
  resolveChecked,
} from '@suite/egress-policy';
import { invalidParams } from '@suite/contracts';

/** The webhooks' egress policy (public-only, PUSH_ALLOWED_HOSTS), the push worker's too. */
export { webhookPolicy } from '@suite/push-delivery';

/** Parses a webhook URL and refuses what can never be delivered (scheme, credentials). */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParams(`push notification url ${JSON.stringify(raw)} is not a valid absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidParams('push notification url must use http or https');
  }
  if (url.username || url.password) {
    throw invalidParams('push notification url must not contain credentials; use authentication instead');
  }
  return url;
}

/**
 * Refuses webhook URLs that would make the runner call into its own network (SSRF): the host is
 * resolved and every address must be allowed. Checked when a config is stored; delivery checks
 * again and connects to exactly the address it checked (`pinnedRequest`), so DNS rebinding
 * between the two gains nothing.
 */
export async function assertPublicWebhookUrl(
  raw: string,
  policy: EgressPolicy,
  resolve: HostResolver,
): Promise<URL> {
  const url = parseWebhookUrl(raw);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  try {
    await resolveChecked(policy, resolve, url.hostname, port);
  } catch (error) {
    if (error instanceof EgressBlockedError) {
      throw invalidParams(
        `push notification url ${JSON.stringify(url.origin)} is refused (webhooks must be public): ${error.message}`,
      );
    }
    throw invalidParams(`push notification url host ${JSON.stringify(url.hostname)} does not resolve`);
  }
  return url;
}
