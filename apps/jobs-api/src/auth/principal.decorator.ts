import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthedRequest } from './api-key.guard.js';

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<AuthedRequest>().principal,
);
