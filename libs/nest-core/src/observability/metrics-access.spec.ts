import { describe, expect, it } from '@jest/globals';
import { metricsAccess } from './metrics-access.js';

const TOKEN = 'metrics-token-0123456789';

describe('metricsAccess', () => {
  it('without METRICS_TOKEN, serves loopback peers only', () => {
    for (const peer of ['127.0.0.1', '127.0.0.9', '::1', '::ffff:127.0.0.1'])
      expect(metricsAccess({ socketAddress: peer, headers: {} }, undefined)).toEqual({ ok: true });
    for (const peer of ['10.0.0.5', '192.168.1.2', '203.0.113.7', '::ffff:10.0.0.5', 'fe80::1', undefined])
      expect(metricsAccess({ socketAddress: peer, headers: {} }, undefined)).toMatchObject({
        ok: false,
        status: 403,
      });
  });

  it('with METRICS_TOKEN, wants the bearer from any peer, loopback included', () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect(metricsAccess({ socketAddress: '10.0.0.5', headers: bearer }, TOKEN)).toEqual({ ok: true });
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }])
      expect(metricsAccess({ socketAddress: '127.0.0.1', headers }, TOKEN)).toMatchObject({
        ok: false,
        status: 401,
      });
  });

  it('never answers through a proxy', () => {
    for (const headers of [{ 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=203.0.113.7' }])
      expect(
        metricsAccess(
          { socketAddress: '127.0.0.1', headers: { ...headers, authorization: `Bearer ${TOKEN}` } },
          TOKEN,
        ),
      ).toMatchObject({ ok: false, status: 404 });
  });
});
