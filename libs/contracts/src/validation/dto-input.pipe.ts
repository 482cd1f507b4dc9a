import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { validateAdminInput } from './validate-admin-input.js';
import { validateBody, validateQuery } from './validate-input.js';
import { validateUserInput } from './validate-user-input.js';

type Validate = (dto: new () => object, raw: unknown, where: 'body' | 'query') => object;

const UNTYPED = new Set<unknown>([undefined, Object, String, Number, Boolean, Array]);

/**
 * Validates a request body or query against the parameter's DTO class with the transport's
 * validator (its error shape); other parameters pass through.
 */
@Injectable()
export class DtoInputPipe implements PipeTransform {
  constructor(private readonly validate: Validate) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (UNTYPED.has(metadata.metatype) || (metadata.type !== 'body' && metadata.type !== 'query'))
      return value;
    return this.validate(metadata.metatype as new () => object, value, metadata.type);
  }
}

/** `@Body(USER_INPUT) body: RegisterDto`: /api/user wording (validateUserInput). */
export const USER_INPUT = new DtoInputPipe(validateUserInput);

/** `@Body(ADMIN_INPUT) body: CreateProjectDto`: control-plane wording (validateAdminInput). */
export const ADMIN_INPUT = new DtoInputPipe(validateAdminInput);

/**
 * `@Body(RUNNER_INPUT) body: CreateJobDto`: `/v1`'s FastAPI-style 422 `detail` (validateBody,
 * validateQuery), so the runner's services take typed DTOs.
 */
export const RUNNER_INPUT = new DtoInputPipe((dto, raw, where) =>
  where === 'body' ? validateBody(dto, raw).value : validateQuery(dto, raw).value,
);
