-- Tool outputs, reasoning, commands and search documents are compressed with lz4 where the server
-- has it (PostgreSQL 14 and later built with lz4, as Debian and the official images are). pglz, the
-- default, took about half the time of a bulk COPY of these rows, and lz4 also reads back faster.
-- The embedded database is built without lz4 and keeps pglz. Only values written from now on are
-- affected.
DO $$
BEGIN
  ALTER TABLE "message" ALTER COLUMN "content" SET COMPRESSION lz4, ALTER COLUMN "reasoning" SET COMPRESSION lz4;
  ALTER TABLE "tool_call" ALTER COLUMN "input" SET COMPRESSION lz4;
  ALTER TABLE "trajectory_search" ALTER COLUMN "commands" SET COMPRESSION lz4, ALTER COLUMN "outputs" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
