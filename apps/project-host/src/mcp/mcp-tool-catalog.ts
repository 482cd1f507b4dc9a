import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  SandboxError,
  ProjectSandboxes,
  type ActiveDeployment,
  type DeployedMcpTool,
  type McpToolResult,
  type SandboxUser,
} from '@suite/project-runtime';
import { schemaValidator } from './mcp-tool-definition.js';

interface Validators {
  input: JsonSchemaValidator<Record<string, unknown>>;
  output: JsonSchemaValidator<Record<string, unknown>> | null;
}

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/**
 * The deployment's tools as MCP sees them (tools/list) and a call of one (tools/call): arguments
 * checked against its inputSchema, the handler run in the project's sandbox exactly like an API
 * handler (same ctx, limits and network rules), its value checked against its outputSchema. Every
 * failure of a tool is an `isError` result the model can read, never a protocol error.
 */
@Injectable()
export class McpToolCatalog {
  private readonly logger = new Logger('project-mcp');
  /** Compiled schemas per deployment and tool (an ajv of their own: `$id`s never meet across tools or projects). */
  private readonly compiled = new Map<string, Map<string, Validators>>();

  constructor(private readonly sandboxes: ProjectSandboxes) {}

  list(deployment: ActiveDeployment): Tool[] {
    return [...deployment.tools.values()].map((tool) => ({
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: tool.inputSchema as Tool['inputSchema'],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    }));
  }

  async call(
    projectId: string,
    deployment: ActiveDeployment,
    tool: DeployedMcpTool,
    args: Record<string, unknown>,
    user: SandboxUser | null,
  ): Promise<CallToolResult> {
    if (tool.auth === 'required' && !user) return failure(`${tool.name} needs a signed-in user.`);
    const validators = this.validatorsOf(deployment, tool);
    const checked = validators.input(args);
    if (!checked.valid) return failure(`Invalid arguments for ${tool.name}: ${checked.errorMessage}`);
    const code = deployment.bundles[tool.entry];
    if (!code) return failure(`${tool.name} is not deployed.`);
    let result: McpToolResult;
    try {
      result = (await this.sandboxes.call(
        projectId,
        {
          op: 'mcp-tool',
          key: `${deployment.id}:${tool.entry}`,
          code,
          input: args,
          user: tool.auth === 'false' ? null : user,
          env: deployment.env,
        },
        tool.timeoutMs,
      )) as McpToolResult;
    } catch (error) {
      this.logger.warn({ projectId, tool: tool.name, err: (error as Error).message }, 'MCP tool failed');
      const reason = error instanceof SandboxError ? error.reason : undefined;
      if (reason === 'unavailable' || reason === 'busy')
        return failure('The project cannot run code right now; try again shortly.');
      if (reason === 'cpu') return failure(`${tool.name} used more CPU time than allowed.`);
      if (reason === 'timeout') return failure(`${tool.name} did not answer in time.`);
      return failure(`${tool.name} failed.`);
    }
    if (!result.ok) return failure(result.error || `${tool.name} failed.`);
    const value = result.value;
    if (validators.output) {
      const output = validators.output(value);
      if (!output.valid) {
        return failure(
          `${tool.name} returned a result that does not match its outputSchema: ${output.errorMessage}`,
        );
      }
      return {
        content: [{ type: 'text', text: JSON.stringify(value) }],
        structuredContent: value as Record<string, unknown>,
      };
    }
    return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
  }

  private validatorsOf(deployment: ActiveDeployment, tool: DeployedMcpTool): Validators {
    let byName = this.compiled.get(deployment.id);
    if (!byName) {
      byName = new Map();
      this.compiled.set(deployment.id, byName);
      if (this.compiled.size > 1_000) this.compiled.delete(this.compiled.keys().next().value!);
    }
    let validators = byName.get(tool.name);
    if (!validators) {
      const ajv = schemaValidator();
      validators = {
        input: ajv.getValidator(tool.inputSchema as JsonSchemaType),
        output: tool.outputSchema ? ajv.getValidator(tool.outputSchema as JsonSchemaType) : null,
      };
      byName.set(tool.name, validators);
    }
    return validators;
  }
}
