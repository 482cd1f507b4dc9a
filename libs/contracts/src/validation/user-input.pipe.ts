import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { validateUserInput } from './validate-user-input.js';

const UNTYPED = new Set<unknown>([undefined, Object, String, Number, Boolean, Array]);

/**
 * `@Body(UserInputPipe) body: RegisterDto`: validates a `{code,message}` request body or query
 * against the parameter's DTO class (validateUserInput); other parameters pass through.
 */
@Injectable()
export class UserInputPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (UNTYPED.has(metadata.metatype) || (metadata.type !== 'body' && metadata.type !== 'query'))
      return value;
    return validateUserInput(metadata.metatype as new () => object, value, metadata.type);
  }
}
