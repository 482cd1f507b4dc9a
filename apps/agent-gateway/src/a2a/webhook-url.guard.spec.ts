import { describe, expect, it } from '@jest/globals';
import { assertPublicWebhookUrl, isPrivateAddress } from './webhook-url.guard.js';

describe('webhook URL guard', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.20.1.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
  ])('treats %s as private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])('treats %s as public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('refuses loopback, metadata and non-http URLs, and allows what PUSH_ALLOWED_HOSTS lists', async () => {
    await expect(assertPublicWebhookUrl('http://169.254.169.254/latest', [])).rejects.toThrow(/metadata/);
    await expect(assertPublicWebhookUrl('http://localhost:9/hook', [])).rejects.toThrow(/resolves to/);
    await expect(assertPublicWebhookUrl('file:///etc/passwd', [])).rejects.toThrow(/http or https/);
    await expect(assertPublicWebhookUrl('http://u:p@93.184.215.14/', [])).rejects.toThrow(/credentials/);
    await expect(assertPublicWebhookUrl('http://127.0.0.1:9/hook', ['127.0.0.1'])).resolves.toBeInstanceOf(
      URL,
    );
    await expect(assertPublicWebhookUrl('http://93.184.215.14/hook', [])).resolves.toBeInstanceOf(URL);
  });
});
