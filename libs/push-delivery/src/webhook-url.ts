import {
  EgressBlockedError,
  type EgressPolicy,
  type HostResolver,
  resolveChecked,
} from '@suite/egress-policy';

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; problem: string };

/**
 * The one check of a webhook URL before it is stored (A2A push configs, suite webhooks): http or
 * https only, no credentials in it, and a host whose every address the webhook policy allows
 * (so the runner never calls into its own network). Delivery checks again and connects to
 * exactly the address it checked (`pinnedRequest`), so DNS rebinding between the two gains nothing.
 * `subject` names the field in the messages ("push notification url", "webhook").
 */
export async function checkWebhookUrl(
  raw: string,
  policy: EgressPolicy,
  resolve: HostResolver,
  subject: string,
): Promise<WebhookUrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: `${subject} ${JSON.stringify(raw)} is not a valid absolute URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, problem: `${subject} must use http or https` };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      problem: `${subject} must not contain credentials; use authentication instead`,
    };
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  try {
    await resolveChecked(policy, resolve, url.hostname, port);
  } catch (error) {
    if (error instanceof EgressBlockedError) {
      return {
        ok: false,
        problem: `${subject} ${JSON.stringify(url.origin)} is refused (webhooks must be public): ${error.message}`,
      };
    }
    return { ok: false, problem: `${subject} host ${JSON.stringify(url.hostname)} does not resolve` };
  }
  return { ok: true, url };
}
