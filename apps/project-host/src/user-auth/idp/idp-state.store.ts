import { Injectable } from '@nestjs/common';
import { queuePrefix } from '@suite/queue';
import { timingSafeEqual } from 'node:crypto';
import { EphemeralStore } from '../../platform/ephemeral-store.js';
import { AuthSecrets, sha256Hex } from '@suite/project-runtime';
import type { AuthorizationChecks } from './oidc-clients.js';

// Sealed with the refresh-grace key; the AAD (the idp-state key) keeps the two uses apart.
const SEAL = 'refresh-grace-seal';

/** Minutes a browser has to come back from the identity provider. */
export const IDP_STATE_TTL_SECONDS = 10 * 60;
/** The hand-off from the start route to the callback's host is followed at once by the browser. */
const HOP_TTL_SECONDS = 2 * 60;
/** The hand-back to the consent page is followed at once by the browser, too. */
const HANDBACK_TTL_SECONDS = 2 * 60;

/** What the callback needs to find again: the project, the caller's redirect_uri and the checks. */
export interface PendingSignIn extends AuthorizationChecks {
  projectId: string;
  /** The project's id host, to resolve the project on the callback (served on the PUBLIC_URL host). */
  projectHost: string;
  redirectUri: string;
  /**
   * `consent`: a sign-in for the MCP consent page; `redirectUri` is that page's return path on the
   * project host, which gets a hand-back code, never tokens. Absent: an /api/user sign-in.
   */
  purpose?: 'consent';
  /** consent only: the hash of the consent page's CSRF cookie (the browser that started). */
  browser?: string;
}

/** A consent page's signed-in user, handed back from the callback to the project host once. */
export interface ConsentHandback {
  projectId: string;
  /** The hash of the consent page's CSRF cookie the sign-in was started with. */
  browser: string;
  user: { id: string; email: string };
}

/** The start route's hand-off to the callback's host: which state, and where the provider is. */
export interface PendingHop {
  state: string;
  authorizationUrl: string;
}

/**
 * The `state` of identity-provider sign-ins: 256 random bits, kept server-side (EphemeralStore: Redis; keyed by its
 * hash, sealed with AUTH_SECRET) for a few minutes, and consumed atomically (GETDEL), so it is
 * single use even when two callbacks race.
 */
@Injectable()
export class IdpStateStore {
  constructor(
    private readonly store: EphemeralStore,
    private readonly secrets: AuthSecrets,
  ) {}

  /** Keeps `pending` under `state` (a fresh randomToken()) for IDP_STATE_TTL_SECONDS. */
  async save(state: string, pending: PendingSignIn): Promise<void> {
    const key = this.key(state);
    const sealed = this.secrets.seal(SEAL, JSON.stringify(pending), key);
    await this.store.set(key, sealed, IDP_STATE_TTL_SECONDS * 1000);
  }

  /** The pending sign-in of `state`, at most once; undefined when unknown, expired or used. */
  async consume(state: unknown): Promise<PendingSignIn | undefined> {
    if (typeof state !== 'string' || state.length === 0 || state.length > 256) return undefined;
    const key = this.key(state);
    const sealed = await this.store.take(key);
    if (!sealed) return undefined;
    const opened = this.secrets.open(SEAL, sealed, key);
    return opened ? (JSON.parse(opened.toString('utf8')) as PendingSignIn) : undefined;
  }

  /** Keeps the hand-off of a just-started sign-in under `hop` (a fresh randomToken()). */
  async saveHop(hop: string, pending: PendingHop): Promise<void> {
    const key = this.hopKey(hop);
    await this.store.set(key, this.secrets.seal(SEAL, JSON.stringify(pending), key), HOP_TTL_SECONDS * 1000);
  }

  /** The hand-off of `hop`, at most once. */
  async takeHop(hop: unknown): Promise<PendingHop | undefined> {
    if (typeof hop !== 'string' || hop.length === 0 || hop.length > 256) return undefined;
    const key = this.hopKey(hop);
    const sealed = await this.store.take(key);
    const opened = sealed ? this.secrets.open(SEAL, sealed, key) : undefined;
    return opened ? (JSON.parse(opened.toString('utf8')) as PendingHop) : undefined;
  }

  /** Keeps the consent page's hand-back under `code` (a fresh randomToken()). */
  async saveHandback(code: string, handback: ConsentHandback): Promise<void> {
    const key = this.handbackKey(code);
    await this.store.set(
      key,
      this.secrets.seal(SEAL, JSON.stringify(handback), key),
      HANDBACK_TTL_SECONDS * 1000,
    );
  }

  /** The hand-back of `code`, at most once (spent by any presentation, right or wrong). */
  async takeHandback(code: unknown): Promise<ConsentHandback | undefined> {
    if (typeof code !== 'string' || code.length === 0 || code.length > 256) return undefined;
    const key = this.handbackKey(code);
    const sealed = await this.store.take(key);
    const opened = sealed ? this.secrets.open(SEAL, sealed, key) : undefined;
    return opened ? (JSON.parse(opened.toString('utf8')) as ConsentHandback) : undefined;
  }

  /** Binds `state` to the browser holding the binding cookie `browserKey`. */
  async bind(state: string, browserKey: string): Promise<void> {
    await this.store.set(this.bindKey(state), sha256Hex(browserKey), IDP_STATE_TTL_SECONDS * 1000);
  }

  /** Whether `browserKey` is the browser `state` was bound to (checked once: the binding is consumed). */
  async takeBinding(state: string, browserKey: string | undefined): Promise<boolean> {
    const bound = await this.store.take(this.bindKey(state));
    return bound !== null && hashOf(browserKey, bound);
  }

  private key(state: string): string {
    return `${queuePrefix()}:ua:idp-state:${sha256Hex(state)}`;
  }

  private hopKey(hop: string): string {
    return `${queuePrefix()}:ua:idp-hop:${sha256Hex(hop)}`;
  }

  private handbackKey(code: string): string {
    return `${queuePrefix()}:ua:idp-consent:${sha256Hex(code)}`;
  }

  private bindKey(state: string): string {
    return `${queuePrefix()}:ua:idp-bind:${sha256Hex(state)}`;
  }
}

/** Whether `value` is what `hash` (a sha256Hex) was made of; false for no value. */
export function hashOf(value: string | undefined, hash: string): boolean {
  if (!value) return false;
  const presented = Buffer.from(sha256Hex(value));
  const expected = Buffer.from(hash);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
