import { Module } from '@nestjs/common';
import { DashboardController } from './dashboard.controller.js';

/** Pages for organization members: projects, a project's Auth page and its Email page. */
@Module({ controllers: [DashboardController] })
export class DashboardModule {}
