import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Post,
  Put,
  Query,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  CodeDto,
  ForgotPasswordDto,
  LoginDto,
  MagicLinkQueryDto,
  RefreshDto,
  RegisterDto,
  ResetPasswordDto,
  UpdateMeDto,
  UserErrorDto,
  USER_INPUT,
} from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import type { FastifyReply } from 'fastify';
import { CurrentProject, ProjectHostGuard } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { MailCodeAuthService } from '../services/mail-code-auth.service.js';
import { PasswordAuthService } from '../services/password-auth.service.js';
import { ProfileService } from '../services/profile.service.js';
import type { AccessClaims } from '../tokens/access-tokens.js';
import type { ClientMeta, TokenPair } from '../tokens/token-pair.js';
import type { ConfirmedEmail, PendingEmailChange, Profile, StatusResponse } from '../user-auth.types.js';
import { AuthOutcomeInterceptor } from './auth-outcome.interceptor.js';
import {
  AccessTokenGuard,
  CurrentClaims,
  CurrentClient,
  UserAuthGuard,
  UserAuthRoute,
} from './user-auth.guards.js';

/**
 * The reserved /api/user routes of every project host (identity-provider routes live elsewhere).
 * Answers carry tokens or personal data, so none may be cached.
 */
@ApiTags('user')
@ApiBadRequestResponse({
  description: 'invalid-request: the message names each bad field.',
  type: UserErrorDto,
})
@ApiTooManyRequestsResponse({
  description: 'rate_limited; Retry-After says when to try again.',
  type: UserErrorDto,
})
@UseGuards(ProjectHostGuard, UserAuthGuard)
@UseInterceptors(AuthOutcomeInterceptor)
@Controller('api/user')
export class UserAuthController {
  constructor(
    private readonly passwords: PasswordAuthService,
    private readonly mailCodes: MailCodeAuthService,
    private readonly profiles: ProfileService,
  ) {}

  @Post('auth/register')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ emailPassword: true, ipLimit: 'register' })
  register(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClient() client: ClientMeta,
    @Body(USER_INPUT) body: RegisterDto,
  ): Promise<TokenPair> {
    return this.passwords.register(ctx, body, client);
  }

  @Post('auth/login')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ emailPassword: true, ipLimit: 'login' })
  login(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClient() client: ClientMeta,
    @Body(USER_INPUT) body: LoginDto,
  ): Promise<TokenPair> {
    return this.passwords.login(ctx, body, client);
  }

  @Post('auth/refresh')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ ipLimit: 'refresh' })
  refresh(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClient() client: ClientMeta,
    @Body(USER_INPUT) body: RefreshDto,
  ): Promise<TokenPair | StatusResponse> {
    return this.passwords.refresh(ctx, body, client);
  }

  @Get('auth/magic-link')
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ emailPassword: true, ipLimit: 'mail' })
  magicLink(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClient() client: ClientMeta,
    @Query(USER_INPUT) query: MagicLinkQueryDto,
  ): Promise<StatusResponse> {
    return this.mailCodes.requestMagicLink(ctx, query, client);
  }

  @Get('auth/magic-link/callback')
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ emailPassword: true, ipLimit: 'callback' })
  magicLinkCallback(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClient() client: ClientMeta,
    @Query(USER_INPUT) query: CodeDto,
  ): Promise<TokenPair> {
    return this.mailCodes.magicLinkCallback(ctx, query, client);
  }

  @Post('auth/forgot-password')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ emailPassword: true, ipLimit: 'mail' })
  forgotPassword(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClient() client: ClientMeta,
    @Body(USER_INPUT) body: ForgotPasswordDto,
  ): Promise<StatusResponse> {
    return this.mailCodes.requestPasswordReset(ctx, body, client);
  }

  @Post('auth/forgot-password/callback')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ emailPassword: true, ipLimit: 'callback' })
  forgotPasswordCallback(
    @CurrentProject() ctx: ProjectContext,
    @Body(USER_INPUT) body: ResetPasswordDto,
  ): Promise<StatusResponse> {
    return this.mailCodes.resetPassword(ctx, body);
  }

  @Get('me')
  @Header('Cache-Control', 'no-store')
  @ApiBearerAuth('access-token')
  @ApiUnauthorizedResponse({ description: 'Missing, invalid or expired access token.', type: UserErrorDto })
  @UseGuards(AccessTokenGuard)
  me(@CurrentProject() ctx: ProjectContext, @CurrentClaims() claims: AccessClaims): Promise<Profile> {
    return this.profiles.me(ctx, claims);
  }

  @Put('me')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Update the name or email',
    description: '200 with the profile; 202 when a new address waits for the code mailed to it.',
  })
  @ApiBearerAuth('access-token')
  @ApiUnauthorizedResponse({ description: 'Missing, invalid or expired access token.', type: UserErrorDto })
  @UserAuthRoute({ ipLimit: 'profile' })
  @UseGuards(AccessTokenGuard)
  async updateMe(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClaims() claims: AccessClaims,
    @Body(USER_INPUT) body: UpdateMeDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Profile | PendingEmailChange> {
    const result = await this.profiles.update(ctx, claims, body);
    void reply.status(result.status);
    return result.body;
  }

  /** Works even when email/password sign-in is off (identity-provider users change their email too). */
  @Post('auth/email-change/callback')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserAuthRoute({ ipLimit: 'callback' })
  emailChangeCallback(
    @CurrentProject() ctx: ProjectContext,
    @Body(USER_INPUT) body: CodeDto,
  ): Promise<ConfirmedEmail> {
    return this.profiles.confirmEmailChange(ctx, body);
  }

  @Get('auth/alt-idp/callback')
  altIdpCallback(): never {
    throw new AuthError(AuthErrorCode.NotImplemented, undefined, { status: 503 });
  }
}
