import OpenAI from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import {
  classifyProviderError,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  parseToolArguments,
  ProviderError,
  type ToolCall,
} from './llm-provider.js';

export interface OpenAiProviderOptions {
  apiKey: string;
  /** Any OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp, a gateway); default api.openai.com. */
  baseURL?: string;
}

/** OpenAI-compatible chat completions with tool calling. */
export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private readonly quirks = new Map<string, { maxCompletionTokens: boolean; noTemperature: boolean }>();

  constructor(options: OpenAiProviderOptions) {
    // Retries are the agent's job, so each one is logged and bounded by the run's limits.
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      maxRetries: 0,
    });
  }

  async complete(request: LlmRequest): Promise<LlmResponse> {
    let completion: OpenAI.Chat.Completions.ChatCompletion | undefined;
    // Newer OpenAI models refuse `max_tokens` and a temperature other than the default; such a 400
    // is learned per model and the call is sent again without the refused parameter.
    const quirks = this.quirks.get(request.model) ?? { maxCompletionTokens: false, noTemperature: false };
    for (let adapted = 0; completion === undefined; adapted++) {
      try {
        completion = await this.client.chat.completions.create(
          {
            model: request.model,
            ...(quirks.noTemperature ? {} : { temperature: 0 }),
            ...(quirks.maxCompletionTokens
              ? { max_completion_tokens: request.maxOutputTokens }
              : { max_tokens: request.maxOutputTokens }),
            messages: toOpenAiMessages(request),
            tools: request.tools.map((tool): ChatCompletionTool => ({
              type: 'function',
              function: { name: tool.name, description: tool.description, parameters: tool.parameters },
            })),
            tool_choice: 'required',
          },
          { signal: request.signal, timeout: request.timeoutMs, maxRetries: 0 },
        );
      } catch (error) {
        const refused = refusedParameter(error);
        if (adapted < 2 && refused === 'max_tokens' && !quirks.maxCompletionTokens) {
          quirks.maxCompletionTokens = true;
        } else if (adapted < 2 && refused === 'temperature' && !quirks.noTemperature) {
          quirks.noTemperature = true;
        } else {
          throw classifyProviderError(error, this.name);
        }
        this.quirks.set(request.model, quirks);
      }
    }
    const choice = completion.choices?.[0];
    if (!choice) throw new ProviderError('server', 'openai answered without any choice');
    const toolCalls: ToolCall[] = [];
    for (const call of choice.message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      const rawArguments = call.function.arguments ?? '';
      const parsed = parseToolArguments(rawArguments);
      toolCalls.push({
        id: call.id,
        name: call.function.name,
        rawArguments,
        ...(parsed ? { arguments: parsed } : {}),
      });
    }
    return {
      ...(choice.message.content ? { text: choice.message.content } : {}),
      toolCalls,
      usage: {
        inputTokens: completion.usage?.prompt_tokens ?? 0,
        outputTokens: completion.usage?.completion_tokens ?? 0,
      },
      ...(choice.finish_reason ? { stopReason: choice.finish_reason } : {}),
    };
  }
}

/** Which request parameter a 400 says the model does not support, if it is one we can leave out. */
function refusedParameter(error: unknown): 'max_tokens' | 'temperature' | undefined {
  const e = error as { status?: unknown; message?: unknown };
  if (e?.status !== 400 || typeof e.message !== 'string') return undefined;
  if (/max_tokens/.test(e.message) && /max_completion_tokens|not supported|unsupported/i.test(e.message))
    return 'max_tokens';
  if (/temperature/.test(e.message) && /not support|unsupported|only the default/i.test(e.message))
    return 'temperature';
  return undefined;
}

function userContent(text: string, image?: string): string | ChatCompletionContentPart[] {
  if (!image) return text;
  return [
    { type: 'text', text },
    { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${image}` } },
  ];
}

function toOpenAiMessages(request: LlmRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: request.system }];
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: userContent(message.text, message.imageJpegBase64) });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: message.text ?? null,
          ...(message.toolCalls.length > 0
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: call.rawArguments },
                })),
              }
            : {}),
        });
        break;
      case 'tool':
        for (const result of message.results)
          out.push({ role: 'tool', tool_call_id: result.callId, content: result.content });
        // Tool messages carry text only; the observation (and its screenshot) follows as a user turn.
        if (message.text)
          out.push({ role: 'user', content: userContent(message.text, message.imageJpegBase64) });
        break;
    }
  }
  return out;
}
