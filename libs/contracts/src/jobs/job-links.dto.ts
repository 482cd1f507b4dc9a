import { ApiProperty } from '@nestjs/swagger';

/** Where to read a job and its artifacts. */
export class JobLinksDto {
  @ApiProperty({ example: '/v1/jobs/0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11' })
  self!: string;

  @ApiProperty({
    description: 'The agent log (plain text).',
    example: '/v1/jobs/0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11/log',
  })
  log!: string;

  @ApiProperty({
    description: 'The recorded video (MP4); null until a recording exists.',
    type: 'string',
    nullable: true,
    example: '/v1/jobs/0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11/video',
  })
  video!: string | null;

  @ApiProperty({
    description:
      'A screenshot (PNG) of the page at the moment a step failed, with `metadata.secrets` values masked; present only when one was taken.',
    required: false,
    example: '/v1/jobs/0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11/screenshot',
  })
  screenshot?: string;

  @ApiProperty({
    description:
      'The run as a runnable Playwright test (`?format=puppeteer` for a Puppeteer script); present only once a passed run recorded its actions.',
    required: false,
    example: '/v1/jobs/0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11/script',
  })
  script?: string;
}
