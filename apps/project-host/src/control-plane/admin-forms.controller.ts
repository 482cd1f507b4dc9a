import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ADMIN_INPUT, ValidateFormDto } from '@suite/contracts';
import { ControlPlaneApi } from './control-plane-api.decorator.js';
import { type FieldProblemView, FormValidationService } from './form-validation.service.js';

/** The dashboard's forms, checked before they are sent. */
@ControlPlaneApi()
@Controller('v1/admin/validate')
export class AdminFormsController {
  constructor(private readonly forms: FormValidationService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Check a form\u2019s body as its endpoint would, without saving anything.' })
  @ApiOkResponse({
    description:
      '`{ "problems": [] }`, or the first problem: `{ "problems": [{ "field": "slug", "problem": "\\"admin\\" is reserved" }] }`.',
  })
  check(@Body(ADMIN_INPUT) body: ValidateFormDto): { problems: FieldProblemView[] } {
    return this.forms.check(body);
  }
}
