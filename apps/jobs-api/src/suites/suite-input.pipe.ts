import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { SuiteInputValidator, type SuiteData } from '@suite/suites';

/** `@Body(SuiteInputPipe) suite: SuiteData`: a suite body checked at the edge, `/v1`'s 422 on failure. */
@Injectable()
export class SuiteInputPipe implements PipeTransform<unknown, Promise<SuiteData>> {
  constructor(@Inject(SuiteInputValidator) private readonly validator: SuiteInputValidator) {}

  transform(body: unknown): Promise<SuiteData> {
    return this.validator.validate(body);
  }
}
