import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ADMIN_INPUT, MoveProjectDto } from '@suite/contracts';
import { ControlPlaneApi } from './control-plane-api.decorator.js';
import { TenantMovesService, type MoveView } from './tenant-moves.service.js';
import { TenantUpgradesService, type TenantServersView } from './tenant-upgrades.service.js';

/** Tenant database servers: where projects' databases live, upgrades of their schema, moves. */
@ControlPlaneApi()
@Controller('v1')
export class TenantServersController {
  constructor(
    private readonly upgrades: TenantUpgradesService,
    private readonly moves: TenantMovesService,
  ) {}

  /** Each server's capacity, projects, tenants behind the latest platform_auth migration, and the upgrade run. */
  @Get('tenant-servers')
  status(): Promise<TenantServersView> {
    return this.upgrades.status();
  }

  /**
   * Asks the project worker for an upgrade sweep now and answers when it is over, or after 30 s
   * with its progress (GET shows the rest).
   */
  @Post('tenant-servers/upgrade')
  @HttpCode(200)
  async upgrade(): Promise<TenantServersView> {
    await this.upgrades.sweep();
    return this.upgrades.status();
  }

  /** Moves the project's database to another server; the project is read-only meanwhile. */
  @Post('projects/:projectId/move')
  @HttpCode(200)
  move(@Param('projectId') projectId: string, @Body(ADMIN_INPUT) body: MoveProjectDto): Promise<MoveView> {
    return this.moves.move(projectId, body);
  }
}
