import { Module } from '@nestjs/common';

/** The reserved `/api/user/*` routes of every project host. */
@Module({})
export class UserAuthModule {}
