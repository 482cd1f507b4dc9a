import { MAIL_OUTBOX_PROVIDERS } from '@suite/project-runtime';
import { WorkerResources } from '../worker-resources.js';
import { SmtpSettingsReader } from './smtp-settings.reader.js';

/**
 * What mail delivery reads and writes through: the mail log's one writer (with the outbox that
 * project code's ctx.email uses) and the projects' SMTP settings.
 */
export const mailDeliveryProviders = [
  ...MAIL_OUTBOX_PROVIDERS,
  {
    provide: SmtpSettingsReader,
    inject: [WorkerResources],
    useFactory: (r: WorkerResources) => new SmtpSettingsReader(r.db),
  },
];
