-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- AlterTable
ALTER TABLE "message" ADD COLUMN     "searchText" TEXT;

-- CreateIndex
CREATE INDEX "message_search_trgm" ON "message" USING GIN ("searchText" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "tool_call_input_trgm" ON "tool_call" USING GIN ("input" gin_trgm_ops);
