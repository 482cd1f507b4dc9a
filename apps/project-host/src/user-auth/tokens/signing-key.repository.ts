import { MainDb, type MainClient } from '@suite/db';

export type SigningKeyRecord = Pick<
  MainDb.SigningKey,
  | 'id'
  | 'projectId'
  | 'generation'
  | 'algorithm'
  | 'publicJwk'
  | 'privateKeySealed'
  | 'createdAt'
  | 'retiredAt'
>;

/** Projects' access-token signing keys (main database, `signing_keys`). */
export abstract class SigningKeyRepository {
  /** Every generation of the project's keys, newest first. */
  abstract listOf(projectId: string): Promise<SigningKeyRecord[]>;
  /**
   * Inserts `key` and retires the project's older live keys at `key.createdAt`, atomically. False
   * when that generation exists already (another process created it first).
   */
  abstract insertGeneration(key: SigningKeyRecord & { retiredAt: null }): Promise<boolean>;
}

export class PrismaSigningKeyRepository extends SigningKeyRepository {
  constructor(private readonly db: MainClient) {
    super();
  }

  listOf(projectId: string): Promise<SigningKeyRecord[]> {
    return this.db.signingKey.findMany({ where: { projectId }, orderBy: { generation: 'desc' } });
  }

  async insertGeneration(key: SigningKeyRecord & { retiredAt: null }): Promise<boolean> {
    const { db } = this;
    try {
      await db.$transaction([
        db.signingKey.create({
          data: { ...key, publicJwk: key.publicJwk as MainDb.Prisma.InputJsonObject },
        }),
        db.signingKey.updateMany({
          where: { projectId: key.projectId, generation: { lt: key.generation }, retiredAt: null },
          data: { retiredAt: key.createdAt },
        }),
      ]);
      return true;
    } catch (error) {
      if (error instanceof MainDb.Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
        return false;
      throw error;
    }
  }
}
