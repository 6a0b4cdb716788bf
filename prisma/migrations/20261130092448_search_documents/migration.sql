/*
  Warnings:

  - You are about to drop the column `searchText` on the `message` table. All the data in the column will be lost.

*/
-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- DropIndex
DROP INDEX "message_search_trgm";

-- DropIndex
DROP INDEX "tool_call_input_trgm";

-- AlterTable
ALTER TABLE "message" DROP COLUMN "searchText";

-- CreateTable
CREATE TABLE "trajectory_search" (
    "trajectoryId" INTEGER NOT NULL,
    "document" tsvector NOT NULL,

    CONSTRAINT "trajectory_search_pkey" PRIMARY KEY ("trajectoryId")
);

-- CreateIndex
CREATE INDEX "trajectory_search_document_idx" ON "trajectory_search" USING GIN ("document");

-- AddForeignKey
ALTER TABLE "trajectory_search" ADD CONSTRAINT "trajectory_search_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;
