-- Judge runs the app makes itself: each (trajectory version, judge, prompt version) asked once,
-- its answer (or its failure) kept; the vote table keeps each judge's newest answer.
CREATE TABLE "judge_run" (
    "id" SERIAL NOT NULL,
    "promptVersion" INTEGER NOT NULL,
    "judges" TEXT[] NOT NULL,
    "filter" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    CONSTRAINT "judge_run_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "judge_request" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "trajectoryVersion" TIMESTAMP(3) NOT NULL,
    "judgeId" INTEGER NOT NULL,
    "promptVersion" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "error" TEXT,
    "raw" TEXT,
    "model" TEXT,
    "tokensIn" INTEGER,
    "tokensOut" INTEGER,
    "ms" INTEGER,
    "cost" DOUBLE PRECISION,
    "truncated" BOOLEAN,
    "cutChars" INTEGER,
    "answeredAt" TIMESTAMP(3),
    CONSTRAINT "judge_request_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "judge_request_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE,
    CONSTRAINT "judge_request_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE,
    CONSTRAINT "judge_request_judgeId_fkey" FOREIGN KEY ("judgeId") REFERENCES "judge"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "judge_request_pair_key" ON "judge_request"("trajectoryId", "trajectoryVersion", "judgeId", "promptVersion");
CREATE INDEX "judge_request_runId_status_idx" ON "judge_request"("runId", "status");
