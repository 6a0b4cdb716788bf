-- Task records (a benchmark's ground truth per task) and the evidence computed from them.
CREATE TABLE "task_record" (
    "instanceId" TEXT NOT NULL,
    "repo" TEXT,
    "baseCommit" TEXT,
    "patch" TEXT NOT NULL,
    "testPatch" TEXT,
    "problemStatement" TEXT,
    "hintsText" TEXT,
    "createdAt" TIMESTAMP(3),
    "version" TEXT,
    "failToPass" JSONB,
    "passToPass" JSONB,
    "environmentSetupCommit" TEXT,
    "extra" JSONB NOT NULL DEFAULT '{}',
    "importId" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "task_record_pkey" PRIMARY KEY ("instanceId")
);

CREATE TABLE "evidence" (
    "trajectoryId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "category" TEXT,
    "detail" TEXT NOT NULL,
    "lines" JSONB,
    CONSTRAINT "evidence_pkey" PRIMARY KEY ("trajectoryId", "seq"),
    CONSTRAINT "evidence_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

ALTER TABLE "trajectory" ADD COLUMN "patchSimilarity" DOUBLE PRECISION;
ALTER TABLE "trajectory" ADD COLUMN "evidenceKinds" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "import" ADD COLUMN "taskRecords" INTEGER NOT NULL DEFAULT 0;

-- The list filters on "any evidence" and on each kind.
CREATE INDEX "trajectory_evidenceKinds_idx" ON "trajectory" USING GIN ("evidenceKinds");
