// The mail outbox moved to @suite/project-runtime (project code in the worker queues mail too).
export { MailOutbox, type MailKind, type OutgoingMail } from '@suite/project-runtime';
