import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, type ClientRequest } from 'node:http';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  UserClient,
  type TestProject,
  type TokenPair,
} from '../support/user-client.js';
import { ADMIN_TOKEN, deploy } from './project-code-harness.js';
import {
  codeFrom,
  decodeJwt,
  GENEROUS_LIMITS,
  infra,
  sleep,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// The push stream (`GET /api/_platform/push`) lives as long as the session that opened it: a
// sign-out, a password reset or "sign out everywhere" ends it at once, on whichever of two host
// replicas it is open (they share Postgres and Redis); a user's other sessions keep theirs. A user
// holds at most PUSH_STREAMS_PER_USER streams per host (a newer one ends the oldest), and
// EventSource clients open one with a single-use, short-lived ticket instead of a token in the URL.

let first: Host;
let second: Host;
let mail: MailRig;
let project: TestProject;
/** The same project through each replica. */
let onFirst: UserClient;
let onSecond: UserClient;
const streams: PushStream[] = [];

interface PushStream {
  status: number;
  body: string;
  events: { event: string; data: unknown }[];
  /** Resolves when the server ends the response. */
  closed: Promise<void>;
  waitFor(event: string): Promise<{ event: string; data: unknown }>;
  close(): void;
}

function openPush(
  client: UserClient,
  options: { bearer?: string; query?: string } = {},
): Promise<PushStream> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    req = request(
      {
        host: '127.0.0.1',
        port: client.port,
        path: `/api/_platform/push${options.query ?? ''}`,
        headers: {
          host: client.host,
          accept: 'text/event-stream',
          ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
        },
      },
      (res) => {
        const events: PushStream['events'] = [];
        const waiters: (() => void)[] = [];
        let buffer = '';
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
          buffer += chunk.toString();
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event) events.push({ event, data: data ? (JSON.parse(data) as unknown) : null });
          }
          for (const waiter of waiters.splice(0)) waiter();
        });
        res.on('error', () => undefined);
        const closed = new Promise<void>((done) => res.on('close', () => done()));
        const stream: PushStream = {
          status: res.statusCode ?? 0,
          get body() {
            return body;
          },
          events,
          closed,
          // Waits on the stream itself: no deadline of its own (jest's test timeout is the bound).
          async waitFor(event) {
            for (;;) {
              const found = events.find((e) => e.event === event);
              if (found) return found;
              await Promise.race([new Promise<void>((wake) => waiters.push(wake)), closed]);
              if (res.complete || res.destroyed) {
                const last = events.find((e) => e.event === event);
                if (last) return last;
                throw new Error(`the stream closed without ${event}: ${JSON.stringify(events)}`);
              }
            }
          },
          close: () => req?.destroy(),
        };
        streams.push(stream);
        resolve(stream);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function ticketFor(client: UserClient, accessToken: string): Promise<string> {
  const res = await client.post('/api/_platform/push/ticket', undefined, { bearer: accessToken });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ ticket: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresIn: 30 });
  return res.body.ticket as string;
}

/** A new user with two sessions (two sign-ins), e.g. a phone and a laptop. */
async function userWithTwoSessions(): Promise<{ email: string; id: string; a: TokenPair; b: TokenPair }> {
  const email = uniqueEmail('push');
  const password = strongPassword();
  const registered = await onFirst.register(email, password);
  expect(registered.status).toBe(201);
  const second = await onSecond.login(email, password);
  expect(second.status).toBe(200);
  return {
    email,
    id: String(decodeJwt(registered.body.accessToken).payload.sub),
    a: registered.body,
    b: second.body,
  };
}

/** ctx.push.send to `userId`, from project code, and proof that `stream` received it. */
async function pushReaches(stream: PushStream, userId: string, bearer: string): Promise<void> {
  const sent = await onFirst.post('/api/notify', { to: userId }, { bearer });
  expect(sent.status).toBe(200);
  expect((await stream.waitFor('push')).data).toMatchObject({ title: 'Hello' });
}

beforeAll(async () => {
  mail = await startMailRig();
  const env = {
    ...GENEROUS_LIMITS,
    // A long cache lifetime: only the sign-out's message can end a stream in time.
    AUTH_STATE_CACHE_MS: '60000',
    PUSH_STREAMS_PER_USER: '5',
    // Queues and pub/sub of their own, shared by the two replicas only.
    REDIS_PREFIX: `${infra.REDIS_PREFIX}-push-streams`,
  };
  first = await startProjectHost(env);
  second = await startProjectHost({
    ...env,
    PUBLIC_URL: `http://localhost:${first.port}`,
    // The ticket-expiry test waits this out; every other ticket is used on the first replica.
    PUSH_TICKET_TTL_SECONDS: '1',
  });
  project = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: first.port,
    smtpPort: mail.smtp.port,
  });
  onFirst = project.client;
  onSecond = new UserClient(second.port, project.host);
  const deployed = await deploy(first, project.id, {
    'api/notify.ts': `import { defineApi } from '@suite/platform-sdk';
      export default defineApi({ auth: 'required', methods: ['POST'], handler: async ({ request, push }) => {
        await push.send({ userId: (request.body as { to: string }).to, title: 'Hello' });
        return { sent: true };
      } });`,
  });
  expect(deployed.status).toBe(201);
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  await Promise.all([first?.app.stop(), second?.app.stop()]);
  await mail?.close();
  if (project) await dropTestProject(infra.DATABASE_URL, project).catch(() => undefined);
});

describe('a push stream ends with its session', () => {
  it("ends at a sign-out on the other replica, while the user's other session keeps its stream", async () => {
    const user = await userWithTwoSessions();
    const laptop = await openPush(onFirst, { bearer: user.a.accessToken });
    const phone = await openPush(onSecond, {
      query: `?ticket=${await ticketFor(onFirst, user.b.accessToken)}`,
    });
    expect([laptop.status, phone.status]).toEqual([200, 200]);
    await Promise.all([laptop.waitFor('ready'), phone.waitFor('ready')]);

    expect((await onSecond.refresh(user.a.refreshToken, true)).status).toBe(200);
    await laptop.closed;
    expect(laptop.events.at(-1)).toEqual({ event: 'ended', data: { reason: 'signed-out' } });

    await pushReaches(phone, user.id, user.b.accessToken);
    expect(phone.events.map((e) => e.event)).toEqual(['ready', 'push']);
  });

  it('ends every stream of the user at a password reset, the ones opened with ?access_token= too', async () => {
    const user = await userWithTwoSessions();
    const laptop = await openPush(onSecond, { bearer: user.a.accessToken });
    const legacy = await openPush(onFirst, { query: `?access_token=${user.b.accessToken}` });
    await Promise.all([laptop.waitFor('ready'), legacy.waitFor('ready')]);

    expect((await onFirst.post('/api/user/auth/forgot-password', { email: user.email })).status).toBe(200);
    const code = codeFrom(await mail.waitFor(user.email, /Reset your/));
    const reset = await onFirst.post('/api/user/auth/forgot-password/callback', {
      code,
      password: strongPassword(),
    });
    expect(reset.status).toBe(200);
    await Promise.all([laptop.closed, legacy.closed]);
    for (const stream of [laptop, legacy]) {
      expect(stream.events.at(-1)).toEqual({ event: 'ended', data: { reason: 'signed-out' } });
    }
  });

  it('ends every stream of the user at "sign out everywhere" on the dashboard', async () => {
    const user = await userWithTwoSessions();
    const laptop = await openPush(onFirst, { bearer: user.a.accessToken });
    const phone = await openPush(onSecond, { bearer: user.b.accessToken });
    await Promise.all([laptop.waitFor('ready'), phone.waitFor('ready')]);

    const admin = new UserClient(second.port, `localhost:${second.port}`);
    const out = await admin.post(`/v1/projects/${project.id}/users/${user.id}/sign-out`, undefined, {
      bearer: ADMIN_TOKEN,
    });
    expect(out.status).toBe(200);
    await Promise.all([laptop.closed, phone.closed]);
    expect(laptop.events.at(-1)?.event).toBe('ended');
    expect(phone.events.at(-1)?.event).toBe('ended');
    // And a stream cannot be opened again with the old token.
    expect((await openPush(onFirst, { bearer: user.a.accessToken })).status).toBe(401);
  });
});

describe('streams per user', () => {
  it("a user's sixth stream, on any replica, ends the oldest; other users are untouched", async () => {
    const user = await userWithTwoSessions();
    const other = await userWithTwoSessions();
    const bystander = await openPush(onFirst, { bearer: other.a.accessToken });
    const opened: PushStream[] = [];
    for (let i = 0; i < 5; i++) {
      const client = i % 2 ? onSecond : onFirst;
      opened.push(await openPush(client, { bearer: i % 2 ? user.a.accessToken : user.b.accessToken }));
      await opened.at(-1)!.waitFor('ready');
    }
    // The oldest is on the first replica; the sixth opens on the second.
    const sixth = await openPush(onSecond, { bearer: user.a.accessToken });
    expect(sixth.status).toBe(200);
    await sixth.waitFor('ready');
    await opened[0]!.closed;
    expect(opened[0]!.events.at(-1)).toEqual({ event: 'ended', data: { reason: 'too-many-streams' } });

    // The five newest and the other user's stream still receive pushes.
    const sent = await onFirst.post('/api/notify', { to: user.id }, { bearer: user.a.accessToken });
    expect(sent.status).toBe(200);
    for (const stream of [...opened.slice(1), sixth]) await stream.waitFor('push');
    await pushReaches(bystander, other.id, other.a.accessToken);
  });
});

describe('push tickets', () => {
  it('opens one stream only: a second use is refused with 401', async () => {
    const user = await userWithTwoSessions();
    const ticket = await ticketFor(onFirst, user.a.accessToken);
    const stream = await openPush(onSecond, { query: `?ticket=${ticket}` });
    expect(stream.status).toBe(200);
    expect((await stream.waitFor('ready')).data).toEqual({ userId: user.id });
    const again = await openPush(onFirst, { query: `?ticket=${ticket}` });
    expect(again.status).toBe(401);
    await again.closed;
    expect(JSON.parse(again.body)).toEqual({
      code: 'unauthorized',
      message: 'The push ticket is invalid, used or expired',
    });
  });

  it('expires unused after PUSH_TICKET_TTL_SECONDS', async () => {
    const user = await userWithTwoSessions();
    const res = await onSecond.post('/api/_platform/push/ticket', undefined, { bearer: user.a.accessToken });
    expect(res.body.expiresIn).toBe(1);
    await sleep(1_500);
    expect((await openPush(onSecond, { query: `?ticket=${String(res.body.ticket)}` })).status).toBe(401);
  });

  it('needs a signed-in Bearer token, and a ticket of a session that ended opens nothing', async () => {
    expect((await onFirst.post('/api/_platform/push/ticket')).status).toBe(401);
    expect((await onFirst.post('/api/_platform/push/ticket', undefined, { bearer: 'nope' })).status).toBe(
      401,
    );
    const user = await userWithTwoSessions();
    const ticket = await ticketFor(onFirst, user.a.accessToken);
    expect((await onFirst.refresh(user.a.refreshToken, true)).status).toBe(200);
    expect((await openPush(onFirst, { query: `?ticket=${ticket}` })).status).toBe(401);
    expect((await openPush(onFirst, { query: `?ticket=${ticket}&ticket=${ticket}` })).status).toBe(401);
  });
});
