-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- DropForeignKey
ALTER TABLE "trajectory_search" DROP CONSTRAINT "trajectory_search_trajectoryId_fkey";

-- Documents are now cut into words by the app (lib/domain/search.ts), not by to_tsvector: the
-- existing ones are dropped and rebuilt from the stored messages by rebuildSearchDocuments, which
-- npm start and every command-line import run.
DELETE FROM "trajectory_search";
