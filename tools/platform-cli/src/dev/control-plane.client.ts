import type { SmtpSettings } from './env-file.js';
import type { ProjectFiles } from './project-files.js';

export interface AuthSettings {
  enabled: boolean;
  emailPassword: boolean;
  allowSignups: boolean;
  idpMode: 'platform' | 'custom' | 'off';
  idpClientId: string | null;
  hasClientSecret: boolean;
}

export interface Project {
  id: string;
  slug: string;
  name: string;
  hosts: string[];
  auth: AuthSettings;
}

export interface Deployment {
  id: string;
  version: number;
  routes: { path: string; auth: string; methods: string[] | null }[];
  hook: { blocking: boolean; timeoutMs: number; handlers: string[] } | null;
}

/** A non-2xx answer of the control plane, with the host's `{code, message}` body. */
export class ControlPlaneError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ControlPlaneError';
  }
}

/** The local host's control-plane API (`/v1/projects…`) with the admin token. */
export class ControlPlaneClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  /** The project, or null when this database does not know it (e.g. after a reset). */
  async findProject(id: string): Promise<Project | null> {
    try {
      return await this.request<Project>('GET', `/v1/projects/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof ControlPlaneError && (error.status === 404 || error.status === 400)) return null;
      throw error;
    }
  }

  createProject(slug: string, name: string): Promise<Project> {
    return this.request('POST', '/v1/projects', { slug, name });
  }

  updateAuth(
    id: string,
    settings: Omit<AuthSettings, 'hasClientSecret' | 'idpClientId'> & {
      idpClientId: string | null;
      idpClientSecret: string | null;
    },
  ): Promise<AuthSettings> {
    return this.request('PUT', `/v1/projects/${id}/auth`, settings);
  }

  updateSmtp(id: string, settings: SmtpSettings): Promise<unknown> {
    return this.request('PUT', `/v1/projects/${id}/smtp`, settings);
  }

  deploy(id: string, files: ProjectFiles): Promise<Deployment> {
    return this.request('POST', `/v1/projects/${id}/deployments`, { files });
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const error = (parsed ?? {}) as { code?: string; message?: string };
      throw new ControlPlaneError(
        response.status,
        error.code ?? `http_${response.status}`,
        error.message ?? (text.slice(0, 300) || response.statusText),
      );
    }
    return parsed as T;
  }
}
