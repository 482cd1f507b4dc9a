// The mail sealer moved to @suite/project-runtime (the project worker opens what the host sealed).
export { MailSealer, type MailBody } from '@suite/project-runtime';
