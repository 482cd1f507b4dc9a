import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** What a derived key is for; each purpose gets its own key, so one use can never stand in for another. */
export type SecretPurpose =
  | 'nonce-hmac'
  | 'signing-key-seal'
  | 'refresh-grace-seal'
  | 'mail-seal'
  /** The MCP consent page: its CSRF tokens (HMAC) and the requests and sign-ins its forms carry (sealed). */
  | 'consent-hmac'
  | 'consent-seal';

type HmacPurpose = 'nonce-hmac' | 'consent-hmac';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The server secret of end-user auth (AUTH_SECRET) and the keys derived from it with HKDF-SHA256:
 * an HMAC key for mailed codes and AES-256-GCM keys that seal signing keys and cached token pairs.
 * Sealed values are bound to an `aad` (e.g. the project and key id), so a value moved to another
 * row or key does not open.
 */
export class AuthSecrets {
  private readonly keys = new Map<SecretPurpose, Buffer>();

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('the auth secret must be at least 32 characters');
    for (const purpose of [
      'nonce-hmac',
      'signing-key-seal',
      'refresh-grace-seal',
      'mail-seal',
      'consent-hmac',
      'consent-seal',
    ] as const) {
      this.keys.set(
        purpose,
        Buffer.from(hkdfSync('sha256', secret, 'suite/project-host/user-auth', purpose, 32)),
      );
    }
  }

  /**
   * AUTH_SECRET, or outside production a development secret derived from PLATFORM_ADMIN_TOKEN
   * (documented in project-host.config.ts; the config refuses to boot in production without one).
   */
  static fromConfig(config: { AUTH_SECRET?: string | undefined; PLATFORM_ADMIN_TOKEN: string }): AuthSecrets {
    if (config.AUTH_SECRET) return new AuthSecrets(config.AUTH_SECRET);
    const derived = Buffer.from(
      hkdfSync('sha256', config.PLATFORM_ADMIN_TOKEN, 'suite/project-host', 'development AUTH_SECRET', 32),
    ).toString('base64url');
    return new AuthSecrets(derived);
  }

  /** Keyed hash (hex, 64 characters) of `parts`, each length-prefixed so boundaries cannot shift. */
  hmacHex(purpose: HmacPurpose, ...parts: string[]): string {
    const mac = createHmac('sha256', this.key(purpose));
    for (const part of parts) {
      const bytes = Buffer.from(part, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      mac.update(length).update(bytes);
    }
    return mac.digest('hex');
  }

  /** AES-256-GCM: base64url(iv | ciphertext | tag). */
  seal(purpose: Exclude<SecretPurpose, HmacPurpose>, plaintext: Buffer | string, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(purpose), iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The plaintext, or undefined when the value was tampered with, moved, or sealed under another secret. */
  open(purpose: Exclude<SecretPurpose, HmacPurpose>, sealed: string, aad: string): Buffer | undefined {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key(purpose), raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      return undefined;
    }
  }

  private key(purpose: SecretPurpose): Buffer {
    return this.keys.get(purpose)!;
  }
}

/** sha256 hex of an opaque token (refresh tokens are 256 random bits: no key or salt needed). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A new opaque token: 32 bytes from the CSPRNG, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a string has the shape of randomToken(): cheap to check before any lookup. */
export function looksLikeToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
