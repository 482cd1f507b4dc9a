import { request } from 'node:http';

// Seeded malformed-request generator for the fuzz fault test. The seed is printed by the test and
// read back from FUZZ_SEED, so a failing run can be replayed exactly.

/** mulberry32: a tiny seeded PRNG, enough to make a run reproducible (not for anything secret). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Fuzzer {
  private readonly next: () => number;

  constructor(readonly seed: number) {
    this.next = seededRandom(seed);
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  string(maxLength = 40): string {
    const alphabets = [
      'abcdefghijklmnopqrstuvwxyz0123456789',
      ' \t\n\r"\\/{}[]<>&%$#@!\'`;:,.',
      '\u0000\u0001\u001f\u007f\u00ff\u2028\u2029\ufeff\ufffd',
      'éüßЖ中文😀𝄞',
    ];
    let out = '';
    const length = this.int(maxLength);
    for (let i = 0; i < length; i++) out += this.pick([...this.pick(alphabets)]);
    return out;
  }

  /** A credential-looking token (header-safe characters only). */
  token(): string {
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    return Array.from({ length: 8 + this.int(200) }, () => this.pick([...chars])).join('');
  }

  /** Any JSON value, nested up to `depth`. */
  json(depth = 3): unknown {
    const kind = this.int(depth > 0 ? 9 : 6);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return this.next() < 0.5;
      case 2:
        return this.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, this.int(1e9)]);
      case 3:
      case 4:
        return this.string();
      case 5:
        return this.pick(['', ' ', 'null', 'true', '0', '-1', '[]', '{}', 'http://', 'javascript:alert(1)']);
      case 6:
        return Array.from({ length: this.int(4) }, () => this.json(depth - 1));
      default: {
        const keys = [
          'query',
          'initial_url',
          'model',
          'env',
          'id',
          'jsonrpc',
          'method',
          'params',
          'email',
          'password',
          'name',
          'refreshToken',
          'token',
          'code',
          '__proto__',
          'constructor',
          this.string(8),
        ];
        const object: Record<string, unknown> = {};
        for (let i = this.int(5); i > 0; i--) object[this.pick(keys)] = this.json(depth - 1);
        return object;
      }
    }
  }

  /** A body that a JSON endpoint must refuse cleanly, with a content type to go with it. */
  body(valid: () => unknown): { body: Buffer | undefined; contentType: string | undefined; label: string } {
    const jsonType = this.pick([
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
    ]);
    switch (this.int(12)) {
      case 0:
        return { body: undefined, contentType: undefined, label: 'no body' };
      case 1:
        return { body: Buffer.alloc(0), contentType: jsonType, label: 'empty JSON body' };
      case 2: {
        const text = JSON.stringify(valid());
        return {
          body: Buffer.from(text.slice(0, Math.max(1, this.int(text.length)))),
          contentType: jsonType,
          label: 'truncated JSON',
        };
      }
      case 3:
        return {
          body: Buffer.from(
            this.pick(['{"a":1,}', "{'a':1}", '{"a":NaN}', '[1,2', 'nul', '{"a":"\\x"}', '\u0000']),
          ),
          contentType: jsonType,
          label: 'malformed JSON',
        };
      case 4:
        return {
          body: Buffer.concat([
            Buffer.from('{"query":"'),
            Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
            Buffer.from('"}'),
          ]),
          contentType: jsonType,
          label: 'invalid UTF-8',
        };
      case 5:
        return {
          body: Buffer.from(JSON.stringify({ query: 'x'.repeat(3 * 1024 * 1024) })),
          contentType: jsonType,
          label: 'huge body (3 MiB)',
        };
      case 6:
        return {
          body: Buffer.from(JSON.stringify(valid())),
          contentType: this.pick([
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'application/xml',
            'application/octet-stream',
            '*/*',
            'application/jsonx',
            'garbage',
          ]),
          label: 'wrong content type',
        };
      case 7:
        return {
          body: Buffer.from(JSON.stringify(this.json(4))),
          contentType: jsonType,
          label: 'random JSON',
        };
      case 8: {
        const base = valid();
        const mutated =
          base && typeof base === 'object' && !Array.isArray(base)
            ? { ...(base as Record<string, unknown>), [this.pick(Object.keys(base))]: this.json(2) }
            : this.json(2);
        return {
          body: Buffer.from(JSON.stringify(mutated)),
          contentType: jsonType,
          label: 'mutated valid body',
        };
      }
      case 9:
        return {
          body: Buffer.from(JSON.stringify(Array.from({ length: 2_000 }, () => ({ a: [[[[{}]]]] })))),
          contentType: jsonType,
          label: 'wide array',
        };
      case 10:
        return {
          body: Buffer.from(`${'['.repeat(5_000)}${']'.repeat(5_000)}`),
          contentType: jsonType,
          label: 'deeply nested JSON',
        };
      default:
        return {
          body: Buffer.from(JSON.stringify(valid())),
          contentType: jsonType,
          label: 'valid-looking body',
        };
    }
  }

  /** A path parameter nobody should trust. */
  pathParam(): string {
    return this.pick([
      'not-a-uuid',
      '00000000-0000-0000-0000-000000000000',
      '%ff%fe',
      '%00',
      '..%2f..%2fetc%2fpasswd',
      encodeURIComponent(this.string(20)) || 'x',
      'a'.repeat(2_000),
      '12345678-1234-1234-1234-1234567890ab',
      '%E2%80%AE',
    ]);
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** A raw HTTP exchange (node:http: any method, any Host header, bytes as they are). */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string> = { ...headers };
    if (body !== undefined) all['content-length'] = String(body.length);
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: all, setHost: !('host' in all) },
      (res) => {
        // A stream (SSE) stays open by design: its status and headers are the answer.
        if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', json: undefined });
          return void req.destroy();
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    // A wall-clock limit, not an idle one: an answer that never completes must not hang the run.
    const limit = setTimeout(() => req.destroy(new Error('no answer within 10 s')), 10_000);
    req.once('close', () => clearTimeout(limit));
    if (body !== undefined) req.write(body);
    req.end();
  });
}
