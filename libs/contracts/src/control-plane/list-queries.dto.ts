import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { oneOfMessage, QueryInteger, QueryValue } from './control-plane-fields.js';

export const PAGE_MAX = 1_000_000;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;

const Page = () => QueryInteger(1, PAGE_MAX, 1, 'Page number, from 1.');
const PageSize = () => QueryInteger(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT, 'Entries per page.');

/** Query of `GET /v1/projects`. */
export class PageQueryDto {
  @Page()
  page?: string;

  @PageSize()
  pageSize?: string;
}

/** Query of `GET /v1/projects/{projectId}/users`. */
export class UsersQueryDto {
  @Page()
  page?: string;

  @PageSize()
  pageSize?: string;

  @ApiPropertyOptional({
    description: 'Part of an email address or name (case-insensitive).',
    maxLength: 320,
    example: 'ada',
  })
  @QueryValue((value) => value.trim().toLowerCase())
  @IsOptional()
  @MaxLength(320, { message: 'must be at most 320 characters' })
  search?: string;
}

/** Query of `GET /v1/projects/{projectId}/emails`. */
export class EmailsQueryDto {
  @Page()
  page?: string;

  @PageSize()
  pageSize?: string;

  @ApiPropertyOptional({
    description: 'Only mails in this state.',
    enum: [...MAIL_STATUSES],
    example: 'failed',
  })
  @QueryValue()
  @IsOptional()
  @IsIn([...MAIL_STATUSES], { message: oneOfMessage(MAIL_STATUSES) })
  status?: (typeof MAIL_STATUSES)[number];
}
