import PostalMime, { type Address } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it, parsed. */
export interface Captured {
  /** Addresses of the To header, lower-cased, comma-separated (one address for a single recipient). */
  to: string;
  /** Address of the From header, e.g. `no-reply@acme.test`. */
  from: string;
  /** Display name of the From header, e.g. `Acme`. */
  fromName: string | null;
  /** The SMTP envelope (MAIL FROM, RCPT TO), lower-cased. */
  envelope: { from: string; to: string[] };
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
  /** The user name the client authenticated with, when it did. */
  user: string | null;
  /** The password the client authenticated with, so a test can check the stored one was used. */
  pass: string | null;
  raw: string;
}

export interface SmtpCapture {
  port: number;
  messages: Captured[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitFor(predicate: (message: Captured) => boolean, timeoutMs?: number): Promise<Captured>;
  close(): Promise<void>;
}

const mailboxes = (addresses: Address[] | undefined): { name: string; address: string }[] =>
  (addresses ?? []).flatMap((entry) =>
    'group' in entry && entry.group ? entry.group : [entry as { name: string; address: string }],
  );

/**
 * A real SMTP server on a free loopback port that accepts every message (plain SMTP, no STARTTLS,
 * any credentials) and keeps it parsed in `messages`.
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: Captured[] = [];
  const waiters = new Set<{ predicate: (message: Captured) => boolean; resolve: (m: Captured) => void }>();

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: { username: auth.username, password: auth.password } });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const credentials = session.user as { username?: string; password?: string } | undefined;
        PostalMime.parse(raw)
          .then((email) => {
            const mailFrom = session.envelope.mailFrom;
            const [sender] = mailboxes(email.from ? [email.from] : []);
            const message: Captured = {
              to: mailboxes(email.to)
                .map((mailbox) => mailbox.address.toLowerCase())
                .join(', '),
              from: sender?.address ?? '',
              fromName: sender?.name || null,
              envelope: {
                from: mailFrom ? mailFrom.address.toLowerCase() : '',
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              },
              subject: email.subject ?? '',
              text: email.text ?? '',
              html: email.html ?? null,
              messageId: email.messageId ?? null,
              user: credentials?.username ?? null,
              pass: credentials?.password ?? null,
              raw,
            };
            messages.push(message);
            for (const waiter of waiters) {
              if (waiter.predicate(message)) {
                waiters.delete(waiter);
                waiter.resolve(message);
              }
            }
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  server.on('error', () => undefined);

  const port = await new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
  });

  return {
    port,
    messages,
    // Generous: on a loaded machine the queue, the worker and SMTP can take a while; a mail that
    // comes sooner ends the wait at once.
    waitFor(predicate, timeoutMs = 60_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<Captured>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (message: Captured) => {
            clearTimeout(timer);
            resolve(message);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
