/*
  Warnings:

  - The primary key for the `message` table will be changed. If it partially fails, the table could be left without primary key constraint.
  - You are about to drop the column `id` on the `message` table. All the data in the column will be lost.
  - The primary key for the `tool_call` table will be changed. If it partially fails, the table could be left without primary key constraint.
  - You are about to drop the column `id` on the `tool_call` table. All the data in the column will be lost.

*/
-- The tool_call → message key depends on the unique index that the primary key replaces.
ALTER TABLE "tool_call" DROP CONSTRAINT "tool_call_trajectoryId_messageSeq_fkey";

-- DropIndex
DROP INDEX "message_trajectoryId_seq_key";

-- DropIndex
DROP INDEX "tool_call_trajectoryId_messageSeq_idx";

-- AlterTable
ALTER TABLE "message" DROP CONSTRAINT "message_pkey",
DROP COLUMN "id",
ADD CONSTRAINT "message_pkey" PRIMARY KEY ("trajectoryId", "seq");

-- AlterTable
ALTER TABLE "tool_call" DROP CONSTRAINT "tool_call_pkey",
DROP COLUMN "id",
ADD CONSTRAINT "tool_call_pkey" PRIMARY KEY ("trajectoryId", "messageSeq", "seq");

-- AddForeignKey
ALTER TABLE "tool_call" ADD CONSTRAINT "tool_call_trajectoryId_messageSeq_fkey" FOREIGN KEY ("trajectoryId", "messageSeq") REFERENCES "message"("trajectoryId", "seq") ON DELETE CASCADE ON UPDATE CASCADE;
