import { Injectable, Logger } from '@nestjs/common';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { AuthSecrets } from '@suite/project-runtime';
import {
  ACCESS_TOKEN_ALG,
  ACCESS_TOKEN_TTL_SECONDS,
  SIGNING_KEY_ROTATE_AFTER_MS,
} from '../user-auth.constants.js';
import { SigningKeyRepository, type SigningKeyRecord } from './signing-key.repository.js';
import { Clock } from '../../platform/clock.js';

export interface SigningKey {
  kid: string;
  /** ES256, or EdDSA for a key made before the move to ES256 (it only verifies until retired). */
  algorithm: string;
  generation: number;
  publicKey: KeyObject;
  /** Missing when the sealed key does not open (AUTH_SECRET changed): it can verify, not sign. */
  privateKey: KeyObject | undefined;
  createdAt: Date;
  retiredAt: Date | null;
}

/** A retired key keeps verifying the tokens it signed until they have expired (plus clock skew). */
const RETIRED_KEY_GRACE_MS = ACCESS_TOKEN_TTL_SECONDS * 1000 + 60_000;
const CACHE_TTL_MS = 60_000;
/** An unknown kid reloads a project's keys at most this often (forged kids cannot hammer the db). */
const RELOAD_THROTTLE_MS = 5_000;

/**
 * Each project's access-token signing keys, in the main database. The first token a project
 * issues creates its key; generations are unique per project, so processes that race to create
 * or rotate a key agree on one winner. Private keys are sealed with AUTH_SECRET and opened only in
 * memory; they are never logged.
 */
@Injectable()
export class SigningKeyStore {
  private readonly logger = new Logger('signing-keys');
  private readonly cache = new Map<string, { keys: SigningKey[]; highest: number; loadedAt: number }>();
  private readonly creating = new Map<string, Promise<SigningKey & { privateKey: KeyObject }>>();

  constructor(
    private readonly records: SigningKeyRepository,
    private readonly secrets: AuthSecrets,
    private readonly clock: Clock,
  ) {}

  private now(): number {
    return this.clock.now().getTime();
  }

  /** The key that signs the project's new tokens, created (or rotated when old) on demand. */
  async signingKey(projectId: string): Promise<SigningKey & { privateKey: KeyObject }> {
    const keys = await this.keys(projectId);
    const current = usable(keys);
    // An old key is rotated, and so is one of an earlier algorithm (the rollover to ES256).
    if (
      current &&
      current.algorithm === ACCESS_TOKEN_ALG &&
      this.now() - current.createdAt.getTime() < SIGNING_KEY_ROTATE_AFTER_MS
    )
      return current;
    // The generation after the newest one this caller saw: of all callers that saw the same state,
    // exactly one inserts it and the others adopt it.
    return this.createGeneration(projectId, this.cache.get(projectId)!.highest + 1);
  }

  /** The key named `kid` if it belongs to this project and may still verify tokens. */
  async verificationKey(projectId: string, kid: string): Promise<SigningKey | undefined> {
    let key = (await this.keys(projectId)).find((candidate) => candidate.kid === kid);
    const loadedAt = this.cache.get(projectId)?.loadedAt ?? 0;
    if (!key && this.now() - loadedAt > RELOAD_THROTTLE_MS) {
      // A key another process created since the last load.
      key = (await this.keys(projectId, true)).find((candidate) => candidate.kid === kid);
    }
    if (!key) return undefined;
    if (key.retiredAt && key.retiredAt.getTime() + RETIRED_KEY_GRACE_MS < this.now()) return undefined;
    return key;
  }

  /** Replaces the project's signing key by a new generation now (the old one keeps verifying a while). */
  async rotate(projectId: string): Promise<SigningKey & { privateKey: KeyObject }> {
    await this.keys(projectId, true);
    return this.createGeneration(projectId, this.cache.get(projectId)!.highest + 1);
  }

  private async keys(projectId: string, reload = false): Promise<SigningKey[]> {
    const cached = this.cache.get(projectId);
    if (!reload && cached && this.now() - cached.loadedAt < CACHE_TTL_MS) return cached.keys;
    // All generations in one read (a project gains one every 90 days), so the highest generation
    // and the live keys come from the same snapshot.
    const started = performance.now();
    const rows = await this.records.listOf(projectId);
    const verifiable = (row: SigningKeyRecord) =>
      !row.retiredAt || row.retiredAt.getTime() + RETIRED_KEY_GRACE_MS > this.now();
    const keys = rows.filter(verifiable).map((row) => this.load(row));
    // Bench figures (LOG_LEVEL=debug): the key-load step of a request to a project not cached here.
    this.logger.debug({ coldStep: 'keys', projectId, ms: performance.now() - started }, 'cold path step');
    this.cache.set(projectId, { keys, highest: rows[0]?.generation ?? 0, loadedAt: this.now() });
    if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
    return keys;
  }

  private load(row: SigningKeyRecord): SigningKey {
    const sealedPrivate = this.secrets.open(
      'signing-key-seal',
      row.privateKeySealed,
      aad(row.projectId, row.id),
    );
    if (!sealedPrivate && !row.retiredAt) {
      this.logger.warn(
        { projectId: row.projectId, kid: row.id },
        'a signing key does not open with the current AUTH_SECRET; it only verifies, a new key will sign',
      );
    }
    return {
      kid: row.id,
      algorithm: row.algorithm,
      generation: row.generation,
      publicKey: createPublicKey({ key: row.publicJwk as unknown as JsonWebKey, format: 'jwk' }),
      privateKey: sealedPrivate
        ? createPrivateKey({ key: sealedPrivate, format: 'der', type: 'pkcs8' })
        : undefined,
      createdAt: row.createdAt,
      retiredAt: row.retiredAt,
    };
  }

  private createGeneration(
    projectId: string,
    generation: number,
  ): Promise<SigningKey & { privateKey: KeyObject }> {
    // Callers of this process that want the same generation share one insert.
    const key = `${projectId}:${generation}`;
    let pending = this.creating.get(key);
    if (!pending) {
      pending = this.insertGeneration(projectId, generation).finally(() => this.creating.delete(key));
      this.creating.set(key, pending);
    }
    return pending;
  }

  private async insertGeneration(
    projectId: string,
    generation: number,
  ): Promise<SigningKey & { privateKey: KeyObject }> {
    const kid = randomUUID();
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const now = this.clock.now();
    // False when another process created this generation first: its key is used.
    await this.records.insertGeneration({
      id: kid,
      projectId,
      generation,
      algorithm: ACCESS_TOKEN_ALG,
      publicJwk: publicKey.export({ format: 'jwk' }) as SigningKeyRecord['publicJwk'],
      privateKeySealed: this.secrets.seal(
        'signing-key-seal',
        privateKey.export({ format: 'der', type: 'pkcs8' }),
        aad(projectId, kid),
      ),
      createdAt: now,
      retiredAt: null,
    });
    const current = usable(await this.keys(projectId, true));
    if (!current) throw new Error(`project ${projectId} has no usable signing key after creating one`);
    return current;
  }
}

/** The newest key that is not retired and can sign. */
function usable(keys: SigningKey[]): (SigningKey & { privateKey: KeyObject }) | undefined {
  const newest = keys.find((key) => !key.retiredAt);
  return newest?.privateKey ? (newest as SigningKey & { privateKey: KeyObject }) : undefined;
}

function aad(projectId: string, kid: string): string {
  return `signing-key:${projectId}:${kid}`;
}
