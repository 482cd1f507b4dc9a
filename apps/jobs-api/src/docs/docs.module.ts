import { Module } from '@nestjs/common';
import { HubController } from './hub.controller.js';

@Module({ controllers: [HubController] })
export class DocsModule {}
