/**
 * The A2A v1.0 shapes as they travel in JSON (camelCase, proto JSON mapping): enums as their
 * names, `oneof` members as the key that is present.
 */
export type JsonObject = Record<string, unknown>;

export const TaskState = {
  Submitted: 'TASK_STATE_SUBMITTED',
  Working: 'TASK_STATE_WORKING',
  Completed: 'TASK_STATE_COMPLETED',
  Failed: 'TASK_STATE_FAILED',
  Canceled: 'TASK_STATE_CANCELED',
  InputRequired: 'TASK_STATE_INPUT_REQUIRED',
  Rejected: 'TASK_STATE_REJECTED',
  AuthRequired: 'TASK_STATE_AUTH_REQUIRED',
} as const;
export type TaskState = (typeof TaskState)[keyof typeof TaskState];

export const TERMINAL_STATES: ReadonlySet<string> = new Set([
  TaskState.Completed,
  TaskState.Failed,
  TaskState.Canceled,
  TaskState.Rejected,
]);

export interface Part {
  text?: string;
  raw?: string;
  url?: string;
  data?: unknown;
  metadata?: JsonObject;
  filename?: string;
  mediaType?: string;
}

export interface Message {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: 'ROLE_USER' | 'ROLE_AGENT' | 'ROLE_UNSPECIFIED';
  parts: Part[];
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
}

export interface TaskStatus {
  state: TaskState;
  message?: Message;
  timestamp?: string;
}

export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: JsonObject;
}

export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts?: Artifact[];
  history?: Message[];
  metadata?: JsonObject;
}

export interface TaskStatusUpdateEvent {
  taskId: string;
  contextId: string;
  status: TaskStatus;
  metadata?: JsonObject;
}

export interface TaskArtifactUpdateEvent {
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: JsonObject;
}

export type StreamResponse =
  | { task: Task }
  | { message: Message }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent };

export interface AuthenticationInfo {
  scheme: string;
  credentials?: string;
}

export interface TaskPushNotificationConfig {
  tenant?: string;
  id: string;
  taskId: string;
  url: string;
  token?: string;
  authentication?: AuthenticationInfo;
}
