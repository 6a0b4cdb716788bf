-- Frozen reports: the result and agreement figures as they were, with the data's fingerprint, and
-- read-only links to one report (the token's sha256 only; the token is shown once).
CREATE TABLE "frozen_report" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "appVersion" TEXT NOT NULL,
    "judges" JSONB NOT NULL,
    "figures" JSON NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "frozen_report_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "frozen_report" ADD CONSTRAINT "frozen_report_createdById_fkey" FOREIGN KEY ("createdById")
    REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "report_link" (
    "id" SERIAL NOT NULL,
    "reportId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "report_link_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "report_link_tokenHash_key" ON "report_link"("tokenHash");
CREATE INDEX "report_link_reportId_idx" ON "report_link"("reportId");
ALTER TABLE "report_link" ADD CONSTRAINT "report_link_reportId_fkey" FOREIGN KEY ("reportId")
    REFERENCES "frozen_report"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "report_link" ADD CONSTRAINT "report_link_createdById_fkey" FOREIGN KEY ("createdById")
    REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;
