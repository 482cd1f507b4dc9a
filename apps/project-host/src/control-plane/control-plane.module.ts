import { Module } from '@nestjs/common';

/** Control-plane API (projects, auth and SMTP settings, domains, users, mail log) and mail delivery. */
@Module({})
export class ControlPlaneModule {}
