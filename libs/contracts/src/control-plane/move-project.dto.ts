import { RequiredText, Rule } from './control-plane-fields.js';

/** Body of `POST /v1/projects/{projectId}/move`. */
export class MoveProjectDto {
  @RequiredText(
    { max: 63, trim: true },
    {
      description:
        "Name of the tenant database server (TENANT_DATABASE_SERVERS) the project's database moves to.",
      example: 'pg2',
    },
    Rule(
      'server name',
      (value) => /^[a-z0-9][a-z0-9_-]*$/i.test(String(value)),
      'must be a server name such as pg2',
    ),
  )
  server!: string;
}
