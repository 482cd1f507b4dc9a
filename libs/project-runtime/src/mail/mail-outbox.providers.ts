import type { Provider } from '@nestjs/common';
import { RuntimeResources } from '../runtime.ports.js';
import { MailLogRepository } from './mail-log.repository.js';
import { MailOutbox } from './mail-outbox.js';
import { MailSealer } from './mail-sealer.js';

/**
 * The mail log's one writer and the outbox that records and queues mail, built from the app's
 * connections (the only place here that sees them). The app provides RuntimeResources and
 * MailSealer.
 */
export const MAIL_OUTBOX_PROVIDERS: Provider[] = [
  {
    provide: MailLogRepository,
    inject: [RuntimeResources],
    useFactory: (resources: RuntimeResources) => new MailLogRepository(resources.db),
  },
  {
    provide: MailOutbox,
    inject: [MailLogRepository, RuntimeResources, MailSealer],
    useFactory: (mailLog: MailLogRepository, resources: RuntimeResources, sealer: MailSealer) =>
      new MailOutbox(mailLog, resources.mailQueue, sealer),
  },
];
