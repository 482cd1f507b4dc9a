import { newId, type MainClient, type MainDb } from '@suite/db';

/** A message as the A2A layer stores it with its task. */
export interface StoredMessageParts {
  messageId: string | null;
  role: string;
  parts: unknown;
  metadata: unknown;
}

/**
 * A2A contexts and the messages of tasks (A2A task = job): the one class that writes a2a_contexts
 * and a2a_messages. The only other statement touching them is the job insert of a new task
 * (job-insert.repository.ts), which stores the task's new context and first message in the same
 * round trip as its job; PrismaJobRepository undoes such a context through this class.
 */
export class A2aConversationRepository {
  /** Context id → the client's name for it (null: the server's id is the name); names never change. */
  private readonly names = new Map<string, string | null>();

  constructor(private readonly db: MainClient) {}

  findContext(id: string): Promise<{ id: string; owner: string } | null> {
    return this.db.a2aContext.findUnique({ where: { id }, select: { id: true, owner: true } });
  }

  /** The owner's context the client named `clientId`, if there is one. */
  async findNamed(owner: string, clientId: string): Promise<string | null> {
    const row = await this.db.a2aContext.findUnique({
      where: { owner_clientId: { owner, clientId } },
      select: { id: true },
    });
    return row?.id ?? null;
  }

  /** The owner's context named `clientId`, made when there is none (two first messages may race). */
  async ensureNamed(owner: string, clientId: string): Promise<{ id: string; created: boolean }> {
    const id = newId();
    const row = await this.db.a2aContext
      .upsert({
        where: { owner_clientId: { owner, clientId } },
        create: { id, owner, clientId },
        update: {},
        select: { id: true },
      })
      .catch(async (error: unknown) => {
        // The loser of a race on the unique (owner, client_id) finds the winner's row.
        const winner =
          (error as { code?: string }).code === 'P2002' ? await this.findNamed(owner, clientId) : null;
        if (!winner) throw error;
        return { id: winner };
      });
    this.remember(row.id, clientId);
    return { id: row.id, created: row.id === id };
  }

  /** What clients call the context `id`: the name a client gave it, or the id itself. */
  async wireId(id: string): Promise<string> {
    if (!this.names.has(id)) {
      const row = await this.db.a2aContext.findUnique({ where: { id }, select: { clientId: true } });
      this.remember(id, row?.clientId ?? null);
    }
    return this.names.get(id) ?? id;
  }

  private remember(id: string, name: string | null): void {
    this.names.set(id, name);
    // Bounded: the oldest entries go first (a Map iterates in insertion order).
    if (this.names.size > 10_000) this.names.delete(this.names.keys().next().value!);
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
