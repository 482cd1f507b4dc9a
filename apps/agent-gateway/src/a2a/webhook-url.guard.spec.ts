import { describe, expect, it } from '@jest/globals';
import { createHostResolver } from '@suite/egress-policy';
import { assertPublicWebhookUrl, webhookPolicy } from './webhook-url.guard.js';

const system = createHostResolver();
/** Stands in for DNS: never asked about anything but the names below. */
const fake = (answers: Record<string, string[]>) => async (host: string) => {
  const found = answers[host];
  if (!found) throw new Error(`${host} does not resolve`);
  return found;
};

describe('webhook URL guard', () => {
  it.each([
    'http://169.254.169.254/latest',
    'http://127.0.0.1:9/hook',
    'http://[::1]:9/hook',
    'http://[::ffff:127.0.0.1]:9/hook',
    'http://2130706433:9/hook',
    'http://0177.0.0.1:9/hook',
    'http://0x7f.0.0.1:9/hook',
    'http://10.0.0.1/hook',
    'http://[fd00:ec2::254]/hook',
    'http://100.100.100.200/hook',
    'http://0.0.0.0:9/hook',
  ])('refuses %s', async (url) => {
    await expect(assertPublicWebhookUrl(url, webhookPolicy([]), fake({}))).rejects.toThrow(
      /refused \(webhooks must be public\): blocked by the webhook policy: .*PUSH_ALLOWED_HOSTS/,
    );
  });

  it('refuses names that resolve to private addresses, and non-http URLs', async () => {
    const policy = webhookPolicy([]);
    await expect(assertPublicWebhookUrl('http://localhost:9/hook', policy, system)).rejects.toThrow(
      /localhost resolved to (127\.0\.0\.1|::1), a loopback address/,
    );
    await expect(
      assertPublicWebhookUrl('http://meta.test/', policy, fake({ 'meta.test': ['169.254.169.254'] })),
    ).rejects.toThrow(/cloud metadata/);
    await expect(assertPublicWebhookUrl('file:///etc/passwd', policy, system)).rejects.toThrow(
      /http or https/,
    );
    await expect(assertPublicWebhookUrl('http://u:p@93.184.215.14/', policy, system)).rejects.toThrow(
      /credentials/,
    );
    await expect(assertPublicWebhookUrl('http://nowhere.test/', policy, fake({}))).rejects.toThrow(
      /does not resolve/,
    );
  });

  it('allows public addresses and what PUSH_ALLOWED_HOSTS lists', async () => {
    await expect(
      assertPublicWebhookUrl('http://93.184.215.14/hook', webhookPolicy([]), fake({})),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      assertPublicWebhookUrl('http://127.0.0.1:9/hook', webhookPolicy(['127.0.0.1']), fake({})),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      assertPublicWebhookUrl(
        'http://hooks.test:9/hook',
        webhookPolicy(['hooks.test:9']),
        fake({ 'hooks.test': ['10.0.0.9'] }),
      ),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      assertPublicWebhookUrl(
        'http://hooks.test:10/hook',
        webhookPolicy(['hooks.test:9']),
        fake({ 'hooks.test': ['10.0.0.9'] }),
      ),
    ).rejects.toThrow(/10\.0\.0\.9, a private address/);
    await expect(
      assertPublicWebhookUrl(
        'http://x.test/',
        webhookPolicy(['10.1.0.0/16']),
        fake({ 'x.test': ['10.1.2.3'] }),
      ),
    ).resolves.toBeInstanceOf(URL);
  });
});
