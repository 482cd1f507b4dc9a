import type { ProjectContext } from '../projects/project-context.js';

/**
 * The project's MCP switch (`auth_settings.mcp_enabled`, on by default): off, `/mcp`, its resource
 * metadata and the OAuth authorization server for MCP clients answer 404, so tokens issued before
 * call nothing until it is on again. `/api/user/*` (a user's own list of clients) is not under it.
 */
export function mcpIsOff(ctx: ProjectContext): boolean {
  return ctx.auth.mcpEnabled === false;
}

export const MCP_OFF_MESSAGE = 'MCP is off for this project';
