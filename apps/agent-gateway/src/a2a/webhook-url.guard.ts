import type { EgressPolicy, HostResolver } from '@suite/egress-policy';
import { invalidParams } from '@suite/contracts';
import { checkWebhookUrl } from '@suite/push-delivery';

/** The webhooks' egress policy (public-only, PUSH_ALLOWED_HOSTS), the push worker's too. */
export { webhookPolicy } from '@suite/push-delivery';

/**
 * Refuses webhook URLs that would make the runner call into its own network (SSRF), or that can
 * never be delivered (scheme, credentials): the shared check of `@suite/push-delivery`, as
 * JSON-RPC invalid params.
 */
export async function assertPublicWebhookUrl(
  raw: string,
  policy: EgressPolicy,
  resolve: HostResolver,
): Promise<URL> {
  const checked = await checkWebhookUrl(raw, policy, resolve, 'push notification url');
  if (!checked.ok) throw invalidParams(checked.problem);
  return checked.url;
}
