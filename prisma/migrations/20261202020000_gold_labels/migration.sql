-- Gold labels: adjudicated verdicts, every version kept (the newest by "createdAt" is in force).
CREATE TABLE "gold_label" (
    "id" SERIAL NOT NULL,
    "trajectoryId" INTEGER NOT NULL,
    "adjudicatorId" TEXT NOT NULL,
    "upstream" "Verdict" NOT NULL,
    "localGit" "Verdict" NOT NULL,
    "memory" "Verdict" NOT NULL,
    "other" "Verdict" NOT NULL,
    "overall" "Verdict" NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "note" TEXT,
    "importId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "gold_label_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "gold_label_trajectoryId_adjudicatorId_createdAt_key"
    ON "gold_label"("trajectoryId", "adjudicatorId", "createdAt");
CREATE INDEX "gold_label_trajectoryId_createdAt_idx" ON "gold_label"("trajectoryId", "createdAt");
ALTER TABLE "gold_label" ADD CONSTRAINT "gold_label_trajectoryId_fkey" FOREIGN KEY ("trajectoryId")
    REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "gold_label" ADD CONSTRAINT "gold_label_adjudicatorId_fkey" FOREIGN KEY ("adjudicatorId")
    REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "gold_label" ADD CONSTRAINT "gold_label_importId_fkey" FOREIGN KEY ("importId")
    REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "import" ADD COLUMN "gold" INTEGER NOT NULL DEFAULT 0;
