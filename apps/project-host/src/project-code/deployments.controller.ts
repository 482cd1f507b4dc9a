import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { UserErrorDto } from '@suite/contracts';
import { AdminTokenGuard } from '../control-plane/admin-token.guard.js';
import { ControlPlaneHostGuard } from '../projects/host.guards.js';
import { type DeploymentView, DeploymentsService } from './deployments.service.js';
import { filesFromJson, filesFromTarGz } from './project-files.js';

/**
 * `POST /v1/projects/{id}/deployments`: project code (`api/`, `hooks/`, `.env`) as a tar.gz
 * (Content-Type application/gzip, up to 5 MB) or as JSON `{"files": {"api/x.ts": "..."}}`.
 */
@ApiTags('control plane')
@ApiBearerAuth('admin-token')
@ApiUnauthorizedResponse({ description: 'Missing or wrong PLATFORM_ADMIN_TOKEN.', type: UserErrorDto })
@ApiBadRequestResponse({
  description: 'invalid-request: the message names the bad field.',
  type: UserErrorDto,
})
@UseGuards(ControlPlaneHostGuard, AdminTokenGuard)
@Controller('v1/projects/:projectId/deployments')
export class DeploymentsController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Post()
  @HttpCode(201)
  async deploy(@Param('projectId') projectId: string, @Body() body: unknown): Promise<DeploymentView> {
    const files = Buffer.isBuffer(body) ? await filesFromTarGz(body) : filesFromJson(body);
    return this.deployments.deploy(projectId, files);
  }
}
