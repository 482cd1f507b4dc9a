-- CreateTable
CREATE TABLE "signing_keys" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "generation" INTEGER NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_key_sealed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "signing_keys_project_id_generation_key" ON "signing_keys"("project_id", "generation");

-- AddForeignKey
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Generations count from 1 (Prisma cannot express CHECK constraints; it ignores them when it diffs).
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_generation_check" CHECK ("generation" > 0);
