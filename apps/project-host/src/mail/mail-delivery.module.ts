import { Module } from '@nestjs/common';
import { loadMailDeliveryConfig, MAIL_DELIVERY_CONFIG } from './mail-delivery.config.js';
import { MailDeliveryProcessor } from './mail-delivery.processor.js';
import { MailDeliveryWorker } from './mail-delivery.worker.js';
import { MailLogRepository } from './mail-log.repository.js';
import { SmtpMailer } from './smtp-mailer.js';

/** Sends the mails MailOutbox queued, through each project's own SMTP server. */
@Module({
  providers: [
    { provide: MAIL_DELIVERY_CONFIG, useFactory: () => loadMailDeliveryConfig() },
    MailLogRepository,
    SmtpMailer,
    MailDeliveryProcessor,
    MailDeliveryWorker,
  ],
})
export class MailDeliveryModule {}
