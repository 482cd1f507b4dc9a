import type { MainClient, MainDb } from '@suite/db';

/** A message as the A2A layer stores it with its task. */
export interface StoredMessageParts {
  messageId: string | null;
  role: string;
  parts: unknown;
  metadata: unknown;
}

/**
 * A2A contexts and the messages of tasks: what the gateway stores besides the jobs themselves (a
 * new task's context and first message are stored with its job, by the job repository).
 */
export class A2aContextRepository {
  constructor(private readonly db: MainClient) {}

  findContext(id: string): Promise<{ id: string; owner: string } | null> {
    return this.db.a2aContext.findUnique({ where: { id }, select: { id: true, owner: true } });
  }

  /** The context with this id, made for `owner` when there is none (two first messages may race). */
  async ensureContext(id: string, owner: string): Promise<{ id: string; owner: string }> {
    return this.db.a2aContext.upsert({
      where: { id },
      create: { id, owner },
      update: {},
      select: { id: true, owner: true },
    });
  }

  async deleteContext(id: string): Promise<void> {
    await this.db.a2aContext.deleteMany({ where: { id } });
  }

  async addMessage(contextId: string, taskId: string, message: StoredMessageParts): Promise<void> {
    await this.db.a2aMessage.create({
      data: {
        contextId,
        taskId,
        messageId: message.messageId,
        role: message.role,
        parts: message.parts as MainDb.Prisma.InputJsonValue,
        metadata: (message.metadata ?? undefined) as MainDb.Prisma.InputJsonValue | undefined,
      },
    });
  }

  /** A task's messages, oldest first. */
  history(taskId: string): Promise<MainDb.A2aMessage[]> {
    return this.db.a2aMessage.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } });
  }
}
