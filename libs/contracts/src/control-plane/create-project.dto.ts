import { Rule, OptionalText, RequiredText } from './control-plane-fields.js';
import { isReservedSlug } from './reserved-slugs.js';

const SLUG = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Body of `POST /v1/projects`. */
export class CreateProjectDto {
  @RequiredText(
    { max: 63 },
    {
      description: 'The project\u2019s host name label: `<slug>.<domain>`.',
      minLength: 3,
      pattern: SLUG.source,
      example: 'acme-shop',
    },
    Rule(
      'slugLength',
      (value) => typeof value === 'string' && value.length >= 3,
      'must be 3 to 63 characters',
    ),
    Rule(
      'slugShape',
      (value) => typeof value === 'string' && SLUG.test(value),
      'must use lower-case letters (a-z), digits and hyphens, and start and end with a letter or digit',
    ),
    Rule(
      'notUuid',
      (value) => typeof value === 'string' && !UUID.test(value),
      'must not be a uuid (project ids are)',
    ),
    Rule(
      'notReserved',
      (value) => typeof value === 'string' && !isReservedSlug(value),
      (value) => `"${String(value)}" is reserved`,
    ),
  )
  slug!: string;

  @OptionalText(
    { max: 100, trim: true },
    { description: 'Display name; the slug when left out.', example: 'Acme Shop' },
  )
  name?: string | null;
}
