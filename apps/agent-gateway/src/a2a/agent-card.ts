import { SUITE_VERSION } from '@suite/config';
import type { JsonObject, ModelInfo } from '@suite/jobs';
import { createHash } from 'node:crypto';
import { INPUT_MODES } from './media-types.js';

export const A2A_PROTOCOL_VERSION = '1.0';

const securitySchemes = {
  bearer: {
    httpAuthSecurityScheme: {
      description: 'The runner API key as "Authorization: Bearer <key>".',
      scheme: 'bearer',
      bearerFormat: 'API key',
    },
  },
  apiKey: {
    apiKeySecurityScheme: {
      description: 'The runner API key in the X-API-Key header.',
      location: 'header',
      name: 'X-API-Key',
    },
  },
};

/** Either key scheme satisfies the agent (requirements are alternatives). */
const securityRequirements = [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }];

const outputModes = ['text/plain', 'application/json', 'video/mp4', 'image/png'];

/** The public v1.0 agent card of the runner. */
export function publicAgentCard(publicUrl: string): JsonObject {
  return {
    name: 'Browser Test Runner',
    description:
      'Runs natural-language browser tests in a real Chromium: give the instructions as text (what to open, click, type and check); the task ends with a pass/fail verdict, a summary, the result of every step, the agent log and a video of the session.',
    supportedInterfaces: [
      { url: `${publicUrl}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: `${publicUrl}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    provider: { organization: 'Browser Test Runner', url: publicUrl },
    version: SUITE_VERSION,
    documentationUrl: `${publicUrl}/docs`,
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true, extensions: [] },
    securitySchemes,
    securityRequirements,
    defaultInputModes: [...INPUT_MODES],
    defaultOutputModes: outputModes,
    skills: [
      {
        id: 'run-browser-test',
        name: 'Run a browser test',
        description:
          'Runs browser test instructions step by step (open/go to, click, type/fill, press, select, check, hover, scroll, wait for, and assertions on text, title, URL, visibility and state). Text parts are the instructions; a data part (or message metadata) may set initial_url, model, env (local_browser or hosted_browser) and highlight_mouse.',
        tags: ['browser', 'testing', 'e2e', 'qa', 'chromium'],
        examples: [
          'Open https://example.com. The page title contains "Example Domain".',
          'Go to /login, type "ada@example.com" into Email, type "secret" into Password, click "Sign in". The page contains "Welcome".',
          'Open https://shop.example/, click "Pricing", check that the URL contains /pricing and that "Pro" is visible.',
        ],
        inputModes: [...INPUT_MODES],
        outputModes,
        securityRequirements,
      },
    ],
    signatures: [],
  };
}

/** What only a caller with a valid key sees: the models this deployment can run, and limits. */
export function extendedAgentCard(
  publicUrl: string,
  models: ModelInfo[],
  limits: { blockingTimeoutMs: number },
): JsonObject {
  const card = publicAgentCard(publicUrl);
  const skills = card.skills as JsonObject[];
  return {
    ...card,
    description: `${card.description as string} Available models: ${models.map((m) => m.id).join(', ')}. A blocking SendMessage answers after at most ${Math.round(limits.blockingTimeoutMs / 1000)} s with the task as it is then.`,
    skills: [
      ...skills,
      {
        id: 'browser-test-artifacts',
        name: 'Browser test artifacts',
        description:
          'Every finished task carries its summary, step results, and links to the agent log (text/plain) and video (video/mp4) on the runner; fetch them with the same API key.',
        tags: ['artifacts', 'video', 'log'],
        examples: ['GetTask with the task id, then download the video artifact URL.'],
        inputModes: ['application/json'],
        outputModes,
        securityRequirements,
      },
    ],
  };
}

/** Cache validators of a card that only changes when the process restarts with another config. */
export interface CachedCard {
  body: string;
  etag: string;
  lastModified: string;
}

export function cacheCard(card: JsonObject, at = new Date()): CachedCard {
  const body = JSON.stringify(card);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  // HTTP dates have whole seconds.
  const lastModified = new Date(Math.floor(at.getTime() / 1000) * 1000).toUTCString();
  return { body, etag, lastModified };
}
