import { ApiProperty } from '@nestjs/swagger';
import { RequiredOneOf, Rule } from './control-plane-fields.js';

/** The control-plane bodies the dashboard's forms send, by form name. */
export const DASHBOARD_FORMS = [
  'create-project',
  'auth-settings',
  'smtp-settings',
  'add-domain',
  'test-mail',
] as const;
export type DashboardForm = (typeof DASHBOARD_FORMS)[number];

/** Body of `POST /v1/admin/validate`: a form's body checked as its endpoint would, nothing saved. */
export class ValidateFormDto {
  @RequiredOneOf(DASHBOARD_FORMS, {
    description:
      'Which body: create-project (POST /v1/projects), auth-settings (PUT …/auth), smtp-settings (PUT …/smtp), add-domain (POST …/domains), test-mail (POST …/smtp/test).',
    example: 'create-project',
  })
  form!: DashboardForm;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The body the form would send.',
    example: { slug: 'acme-shop' },
  })
  @Rule(
    'jsonObject',
    (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
    'must be a JSON object',
  )
  values!: Record<string, unknown>;
}
