import { Module } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module.js';
import { McpController } from './mcp.controller.js';

@Module({ imports: [A2aModule], controllers: [McpController] })
export class McpModule {}
