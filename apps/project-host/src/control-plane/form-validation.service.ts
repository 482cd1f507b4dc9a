import { Injectable } from '@nestjs/common';
import {
  type DashboardForm,
  SendTestMailDto,
  validateAdminInput,
  type ValidateFormDto,
} from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { parseAddDomain, parseAuthSettings, parseCreateProject, parseSmtpSettings } from './project-input.js';

/** What is wrong with a form's body, in the control plane's words (`slug` / `"admin" is reserved`). */
export interface FieldProblemView {
  field: string;
  problem: string;
}

const PARSERS: Record<DashboardForm, (values: unknown) => unknown> = {
  'create-project': parseCreateProject,
  'auth-settings': parseAuthSettings,
  'smtp-settings': parseSmtpSettings,
  'add-domain': parseAddDomain,
  'test-mail': (values) => validateAdminInput(SendTestMailDto, values, 'body'),
};

/**
 * The dashboard checks a form before it sends it: the same reading its endpoint makes (the DTO and
 * what only the host checks), answered 200 with the first problem, so a typo is shown next to its
 * field without a failed request. Checks that need the stored data (a slug already taken) are the
 * endpoint's own.
 */
@Injectable()
export class FormValidationService {
  check(body: ValidateFormDto): { problems: FieldProblemView[] } {
    try {
      PARSERS[body.form](body.values);
      return { problems: [] };
    } catch (error) {
      if (!(error instanceof AuthError) || error.code !== AuthErrorCode.InvalidRequest) throw error;
      const [, field = '', problem = error.message] = /^(\w+):? (.+)$/s.exec(error.message) ?? [];
      return { problems: [{ field, problem }] };
    }
  }
}
