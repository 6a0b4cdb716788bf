-- Commands get a search document of their own, so a phrase common to many trajectories is checked
-- against small documents. The old document becomes the outputs document, and its rows keep their
-- commands too, so they stay searchable as before.
ALTER TABLE "trajectory_search" RENAME COLUMN "document" TO "outputs";
ALTER INDEX "trajectory_search_document_idx" RENAME TO "trajectory_search_outputs_idx";
ALTER TABLE "trajectory_search" ADD COLUMN "commands" tsvector NOT NULL DEFAULT ''::tsvector;
CREATE INDEX "trajectory_search_commands_idx" ON "trajectory_search" USING GIN ("commands");
