import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { type DeploymentView, DeploymentsService } from './deployments.service.js';
import { filesFromJson, filesFromTarGz } from './project-files.js';
import { ControlPlaneApi } from '../control-plane/control-plane-api.decorator.js';
import { RouteBody } from '../http/request-bodies.js';

/**
 * `POST /v1/projects/{id}/deployments`: project code (`api/`, `hooks/`, `.env`) as a tar.gz
 * (Content-Type application/gzip, up to 5 MB; the only route that reads archives) or as JSON
 * `{"files": {"api/x.ts": "..."}}` (64 KB).
 */
@ControlPlaneApi()
@Controller('v1/projects/:projectId/deployments')
export class DeploymentsController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Post()
  @RouteBody('deploy-archive')
  @HttpCode(201)
  async deploy(@Param('projectId') projectId: string, @Body() body: unknown): Promise<DeploymentView> {
    const files = Buffer.isBuffer(body) ? await filesFromTarGz(body) : filesFromJson(body);
    return this.deployments.deploy(projectId, files);
  }
}
