import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The project host's error body (`/api/user`, the control plane, the project's own APIs). */
export class UserErrorDto {
  @ApiProperty({
    description: 'Stable error code, e.g. invalid-request, invalid-credentials, identity-not-found.',
    example: 'invalid-request',
  })
  code!: string;

  @ApiProperty({
    description: 'What went wrong; for invalid-request, each bad field as `field: problem`, joined by "; ".',
    example: 'password: is required',
  })
  message!: string;

  @ApiPropertyOptional({
    description: 'On 500s only: the id of the logged error, to quote when reporting it.',
    example: '3f2b8c1e-6d0a-4e4b-9a57-2c1d8e9f0a11',
  })
  errorId?: string;
}
