import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { mailSummary } from './mail-summary.js';
import { say } from './terminal.js';

/** A local SMTP server that accepts every mail and prints it: the dev host's outbox. */
export interface MailSink {
  port: number;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((email) => {
            const to = (email.to ?? [])
              .map((entry) => ('address' in entry && entry.address ? entry.address : entry.name))
              .join(', ');
            say(
              'mail',
              mailSummary({ to, subject: email.subject ?? '(no subject)', text: email.text ?? '' }),
            );
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
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
