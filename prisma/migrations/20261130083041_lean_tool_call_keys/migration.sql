-- DropForeignKey
ALTER TABLE "tool_call" DROP CONSTRAINT "tool_call_trajectoryId_fkey";

-- DropIndex
DROP INDEX "tool_call_trajectoryId_step_idx";
