-- A2A clients may name a new context themselves: the name is kept per owner (the row's id stays
-- the server's), so two owners using the same name get two contexts.
ALTER TABLE "a2a_contexts" ADD COLUMN "client_id" TEXT;

CREATE UNIQUE INDEX "a2a_contexts_owner_client_id_key" ON "a2a_contexts"("owner", "client_id");
