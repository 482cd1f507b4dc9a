import { Injectable } from '@nestjs/common';
import {
  AddDomainDto,
  AuthSettingsDto,
  CreateProjectDto,
  type DashboardForm,
  SendTestMailDto,
  SmtpSettingsDto,
  validateAdminInput,
  type ValidateFormDto,
} from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';

/** What is wrong with a form's body, in the control plane's words (`slug` / `"admin" is reserved`). */
export interface FieldProblemView {
  field: string;
  problem: string;
}

const FORMS: Record<DashboardForm, new () => object> = {
  'create-project': CreateProjectDto,
  'auth-settings': AuthSettingsDto,
  'smtp-settings': SmtpSettingsDto,
  'add-domain': AddDomainDto,
  'test-mail': SendTestMailDto,
};

/**
 * The dashboard checks a form before it sends it: the same DTO its endpoint validates with,
 * answered 200 with the first problem, so a typo is shown next to its field without a failed
 * request. Checks that need the stored data (a slug already taken) are the endpoint's own.
 */
@Injectable()
export class FormValidationService {
  check(body: ValidateFormDto): { problems: FieldProblemView[] } {
    try {
      validateAdminInput(FORMS[body.form], body.values, 'body');
      return { problems: [] };
    } catch (error) {
      if (!(error instanceof AuthError) || error.code !== AuthErrorCode.InvalidRequest) throw error;
      const [, field = '', problem = error.message] = /^(\w+):? (.+)$/s.exec(error.message) ?? [];
      return { problems: [{ field, problem }] };
    }
  }
}
