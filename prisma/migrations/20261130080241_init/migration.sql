-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('NOT_ATTEMPTED', 'ATTEMPTED', 'SUCCESSFUL');

-- CreateEnum
CREATE TYPE "Prompt" AS ENUM ('vanilla', 'principled');

-- CreateEnum
CREATE TYPE "MessageRole" AS ENUM ('system', 'user', 'assistant', 'tool');

-- CreateEnum
CREATE TYPE "ParseStatus" AS ENUM ('GIVEN', 'PARSED', 'UNPARSEABLE');

-- CreateEnum
CREATE TYPE "PanelSplit" AS ENUM ('UNANIMOUS', 'MAJORITY', 'NO_MAJORITY');

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('RESEARCHER', 'ANNOTATOR', 'REVIEWER');

-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('RUNNING', 'SUCCEEDED', 'FAILED');

-- CreateTable
CREATE TABLE "benchmark" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "benchmark_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_model" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "agent_model_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task" (
    "id" SERIAL NOT NULL,
    "benchmarkId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "repo" TEXT,
    "baseCommit" TEXT,
    "language" TEXT,

    CONSTRAINT "task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trajectory" (
    "id" SERIAL NOT NULL,
    "externalId" TEXT,
    "benchmarkId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL,
    "network" BOOLEAN NOT NULL,
    "prompt" "Prompt" NOT NULL,
    "run" INTEGER NOT NULL,
    "resolved" BOOLEAN,
    "patch" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "sourceFormat" TEXT NOT NULL DEFAULT 'interchange',
    "stepCount" INTEGER NOT NULL DEFAULT 0,
    "messageCount" INTEGER NOT NULL DEFAULT 0,
    "importId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "panelVerdict" "Verdict",
    "panelUpstream" "Verdict",
    "panelLocalGit" "Verdict",
    "panelMemory" "Verdict",
    "panelOther" "Verdict",
    "panelSplit" "PanelSplit",
    "voteCount" INTEGER NOT NULL DEFAULT 0,
    "unparseableVotes" INTEGER NOT NULL DEFAULT 0,
    "labelCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "trajectory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message" (
    "id" SERIAL NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "role" "MessageRole" NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "reasoning" TEXT,
    "toolCallId" TEXT,
    "exitCode" INTEGER,

    CONSTRAINT "message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_call" (
    "id" SERIAL NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "messageSeq" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "callId" TEXT,
    "name" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "inputIsJson" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "tool_call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "judge" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "judge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "judge_vote" (
    "id" SERIAL NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "judgeId" INTEGER NOT NULL,
    "upstream" "Verdict" NOT NULL,
    "localGit" "Verdict" NOT NULL,
    "memory" "Verdict" NOT NULL,
    "other" "Verdict" NOT NULL,
    "overall" "Verdict" NOT NULL,
    "parseStatus" "ParseStatus" NOT NULL,
    "rationale" TEXT,
    "raw" TEXT,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "importId" INTEGER,
    "votedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "judge_vote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user" (
    "id" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "role" "UserRole" NOT NULL DEFAULT 'ANNOTATOR',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "label" (
    "id" SERIAL NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "studyId" INTEGER,
    "upstream" "Verdict" NOT NULL,
    "localGit" "Verdict" NOT NULL,
    "memory" "Verdict" NOT NULL,
    "other" "Verdict" NOT NULL,
    "overall" "Verdict" NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "note" TEXT,
    "importId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "label_revision" (
    "id" SERIAL NOT NULL,
    "labelId" INTEGER NOT NULL,
    "editorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "before" JSONB,
    "after" JSONB NOT NULL,

    CONSTRAINT "label_revision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "study" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "overlap" INTEGER NOT NULL DEFAULT 1,
    "blind" BOOLEAN NOT NULL DEFAULT true,
    "design" JSONB NOT NULL DEFAULT '{}',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "study_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "study_item" (
    "id" SERIAL NOT NULL,
    "studyId" INTEGER NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "stratum" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "study_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "study_assignment" (
    "id" SERIAL NOT NULL,
    "studyItemId" INTEGER NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "study_assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import" (
    "id" SERIAL NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileSha256" TEXT,
    "fileBytes" BIGINT NOT NULL DEFAULT 0,
    "format" TEXT,
    "source" TEXT NOT NULL DEFAULT 'cli',
    "status" "ImportStatus" NOT NULL DEFAULT 'RUNNING',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "userId" TEXT,
    "trajectories" INTEGER NOT NULL DEFAULT 0,
    "votes" INTEGER NOT NULL DEFAULT 0,
    "labels" INTEGER NOT NULL DEFAULT 0,
    "replaced" INTEGER NOT NULL DEFAULT 0,
    "rejected" INTEGER NOT NULL DEFAULT 0,
    "unparseable" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "import_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "benchmark_name_key" ON "benchmark"("name");

-- CreateIndex
CREATE UNIQUE INDEX "agent_model_name_key" ON "agent_model"("name");

-- CreateIndex
CREATE UNIQUE INDEX "task_benchmarkId_key_key" ON "task"("benchmarkId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "trajectory_externalId_key" ON "trajectory"("externalId");

-- CreateIndex
CREATE INDEX "trajectory_modelId_network_prompt_idx" ON "trajectory"("modelId", "network", "prompt");

-- CreateIndex
CREATE INDEX "trajectory_taskId_modelId_idx" ON "trajectory"("taskId", "modelId");

-- CreateIndex
CREATE INDEX "trajectory_panelVerdict_idx" ON "trajectory"("panelVerdict");

-- CreateIndex
CREATE INDEX "trajectory_resolved_idx" ON "trajectory"("resolved");

-- CreateIndex
CREATE UNIQUE INDEX "trajectory_benchmarkId_modelId_taskId_network_prompt_run_key" ON "trajectory"("benchmarkId", "modelId", "taskId", "network", "prompt", "run");

-- CreateIndex
CREATE INDEX "message_trajectoryId_step_idx" ON "message"("trajectoryId", "step");

-- CreateIndex
CREATE UNIQUE INDEX "message_trajectoryId_seq_key" ON "message"("trajectoryId", "seq");

-- CreateIndex
CREATE INDEX "tool_call_trajectoryId_step_idx" ON "tool_call"("trajectoryId", "step");

-- CreateIndex
CREATE INDEX "tool_call_trajectoryId_messageSeq_idx" ON "tool_call"("trajectoryId", "messageSeq");

-- CreateIndex
CREATE UNIQUE INDEX "judge_name_key" ON "judge"("name");

-- CreateIndex
CREATE INDEX "judge_vote_judgeId_idx" ON "judge_vote"("judgeId");

-- CreateIndex
CREATE UNIQUE INDEX "judge_vote_trajectoryId_judgeId_key" ON "judge_vote"("trajectoryId", "judgeId");

-- CreateIndex
CREATE UNIQUE INDEX "user_handle_key" ON "user"("handle");

-- CreateIndex
CREATE UNIQUE INDEX "user_email_key" ON "user"("email");

-- CreateIndex
CREATE INDEX "label_annotatorId_idx" ON "label"("annotatorId");

-- CreateIndex
CREATE UNIQUE INDEX "label_trajectoryId_annotatorId_key" ON "label"("trajectoryId", "annotatorId");

-- CreateIndex
CREATE INDEX "label_revision_labelId_idx" ON "label_revision"("labelId");

-- CreateIndex
CREATE UNIQUE INDEX "study_name_key" ON "study"("name");

-- CreateIndex
CREATE UNIQUE INDEX "study_item_studyId_trajectoryId_key" ON "study_item"("studyId", "trajectoryId");

-- CreateIndex
CREATE INDEX "study_assignment_annotatorId_idx" ON "study_assignment"("annotatorId");

-- CreateIndex
CREATE UNIQUE INDEX "study_assignment_studyItemId_annotatorId_key" ON "study_assignment"("studyItemId", "annotatorId");

-- CreateIndex
CREATE INDEX "import_startedAt_idx" ON "import"("startedAt");

-- AddForeignKey
ALTER TABLE "task" ADD CONSTRAINT "task_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "benchmark"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "agent_model"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "task"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message" ADD CONSTRAINT "message_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_call" ADD CONSTRAINT "tool_call_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_call" ADD CONSTRAINT "tool_call_trajectoryId_messageSeq_fkey" FOREIGN KEY ("trajectoryId", "messageSeq") REFERENCES "message"("trajectoryId", "seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_vote" ADD CONSTRAINT "judge_vote_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_vote" ADD CONSTRAINT "judge_vote_judgeId_fkey" FOREIGN KEY ("judgeId") REFERENCES "judge"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_vote" ADD CONSTRAINT "judge_vote_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "label" ADD CONSTRAINT "label_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "label" ADD CONSTRAINT "label_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "label" ADD CONSTRAINT "label_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "study"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "label" ADD CONSTRAINT "label_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "label_revision" ADD CONSTRAINT "label_revision_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "label"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "label_revision" ADD CONSTRAINT "label_revision_editorId_fkey" FOREIGN KEY ("editorId") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "study" ADD CONSTRAINT "study_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "study_item" ADD CONSTRAINT "study_item_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "study_item" ADD CONSTRAINT "study_item_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "study_assignment" ADD CONSTRAINT "study_assignment_studyItemId_fkey" FOREIGN KEY ("studyItemId") REFERENCES "study_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "study_assignment" ADD CONSTRAINT "study_assignment_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import" ADD CONSTRAINT "import_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;
