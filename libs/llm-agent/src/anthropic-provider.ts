import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  ImageBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import {
  classifyProviderError,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  type ToolCall,
} from './llm-provider.js';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseURL?: string;
  /**
   * Sent only when set: @anthropic-ai/sdk 1.x dropped `temperature` from its request type (the API
   * deprecated it for current models), but gateways and older models still honour 0.
   */
  temperature?: number;
}

/** Anthropic messages with tool use. */
export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic';
  private readonly client: Anthropic;
  private readonly temperature: number | undefined;

  constructor(options: AnthropicProviderOptions) {
    this.temperature = options.temperature;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      maxRetries: 0,
    });
  }

  async complete(request: LlmRequest): Promise<LlmResponse> {
    let message: Anthropic.Messages.Message;
    try {
      const params: Anthropic.Messages.MessageCreateParamsNonStreaming = {
        model: request.model,
        max_tokens: request.maxOutputTokens,
        system: request.system,
        messages: toAnthropicMessages(request),
        tools: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.parameters as Anthropic.Messages.Tool.InputSchema,
        })),
        tool_choice: { type: 'any' },
        ...(this.temperature !== undefined ? { temperature: this.temperature } : {}),
      } as Anthropic.Messages.MessageCreateParamsNonStreaming;
      message = await this.client.messages.create(params, {
        signal: request.signal,
        timeout: request.timeoutMs,
        maxRetries: 0,
      });
    } catch (error) {
      throw classifyProviderError(error, this.name);
    }
    const toolCalls: ToolCall[] = [];
    const texts: string[] = [];
    for (const block of message.content ?? []) {
      if (block.type === 'text') texts.push(block.text);
      if (block.type === 'tool_use') {
        const input = block.input;
        const isObject = input !== null && typeof input === 'object' && !Array.isArray(input);
        toolCalls.push({
          id: block.id,
          name: block.name,
          rawArguments: JSON.stringify(input ?? null),
          ...(isObject ? { arguments: input as Record<string, unknown> } : {}),
        });
      }
    }
    return {
      ...(texts.length > 0 ? { text: texts.join('\n') } : {}),
      toolCalls,
      usage: {
        inputTokens: message.usage?.input_tokens ?? 0,
        outputTokens: message.usage?.output_tokens ?? 0,
      },
      ...(message.stop_reason ? { stopReason: message.stop_reason } : {}),
    };
  }
}

function textAndImage(text: string | undefined, image: string | undefined): ContentBlockParam[] {
  const blocks: Array<TextBlockParam | ImageBlockParam> = [];
  if (text) blocks.push({ type: 'text', text });
  if (image)
    blocks.push({ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: image } });
  return blocks;
}

function toAnthropicMessages(request: LlmRequest): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: textAndImage(message.text, message.imageJpegBase64) });
        break;
      case 'assistant': {
        const content: ContentBlockParam[] = [];
        if (message.text) content.push({ type: 'text', text: message.text });
        for (const call of message.toolCalls)
          content.push({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: call.arguments ?? {},
          });
        out.push({ role: 'assistant', content });
        break;
      }
      case 'tool':
        out.push({
          role: 'user',
          content: [
            ...message.results.map((result): ContentBlockParam => ({
              type: 'tool_result',
              tool_use_id: result.callId,
              content: result.content,
              ...(result.isError ? { is_error: true } : {}),
            })),
            ...textAndImage(message.text, message.imageJpegBase64),
          ],
        });
        break;
    }
  }
  return out;
}
