/*
  Warnings:

  - The primary key for the `message` table will be changed. If it partially fails, the table could be left without primary key constraint.

*/
-- DropForeignKey
ALTER TABLE "tool_call" DROP CONSTRAINT "tool_call_trajectoryId_messageSeq_fkey";

-- DropIndex
DROP INDEX "message_trajectoryId_step_idx";

-- AlterTable
ALTER TABLE "message" DROP CONSTRAINT "message_pkey",
ADD CONSTRAINT "message_pkey" PRIMARY KEY ("trajectoryId", "step", "seq");

-- AddForeignKey
ALTER TABLE "tool_call" ADD CONSTRAINT "tool_call_trajectoryId_step_messageSeq_fkey" FOREIGN KEY ("trajectoryId", "step", "messageSeq") REFERENCES "message"("trajectoryId", "step", "seq") ON DELETE CASCADE ON UPDATE CASCADE;
